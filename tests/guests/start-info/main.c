/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The start-of-day state against xen.h's contract ("Start-of-day memory
 * layout"): start_info's fields, the p2m list and the M2P agreeing, the
 * bootstrap page tables mapped read-only, everything else in the initial
 * mapping writable, .bss zeroed, the initrd and command line delivered,
 * and the data selectors Xen's domain builder gives (FLAT_KERNEL_DS:
 * flat for a 32-bit kernel, null for a 64-bit one).  Booted with an
 * initrd and a command line (see expect).
 */
#include "guest.h"

const char test_title[] = "start_info and the initial mapping";

static char bss_probe[8192];
extern char _end[];

static const unsigned long *m2p = (const void *)MACH2PHYS_VIRT_START;

void test_main(void)
{
    const start_info_t *si = start_info;
    const unsigned long *p2m = (const void *)si->mfn_list;
    unsigned long pfn, va, end, i;
    const char *initrd;
    unsigned int sel[4];

    asm volatile ( "mov %%ds, %0; mov %%es, %1; mov %%fs, %2; mov %%gs, %3"
                   : "=r" (sel[0]), "=r" (sel[1]), "=r" (sel[2]),
                     "=r" (sel[3]) );
    for ( i = 0; i < 4; i++ )
        if ( (sel[i] & 0xffff) != FLAT_KERNEL_DS )
            test_fail("%cs %#x at start, wanted %#x", "defg"[i],
                      sel[i] & 0xffff, FLAT_KERNEL_DS);

    if ( strncmp(si->magic, GUEST_SI_MAGIC, 32) )
        test_fail("magic \"%.32s\"", si->magic);
    if ( si->nr_pages < (64UL << 20) >> 12 )
        test_fail("nr_pages %lu: less than 64 MiB", si->nr_pages);
    if ( si->flags & (SIF_PRIVILEGED | SIF_INITDOMAIN) )
        test_fail("flags %#x: a domU is not privileged", si->flags);
    if ( si->shared_info & (PAGE_SIZE - 1) )
        test_fail("shared_info %#lx not page aligned", si->shared_info);

    /* p2m and M2P are inverse, for every pfn. */
    for ( pfn = 0; pfn < si->nr_pages; pfn++ )
        if ( m2p[p2m[pfn]] != pfn )
        {
            test_fail("m2p[p2m[%#lx] = %#lx] = %#lx", pfn, p2m[pfn],
                      m2p[p2m[pfn]]);
            break;
        }

    /* The special pages are guest pages, and they are in the p2m. */
    for ( i = 0, pfn = 0; pfn < si->nr_pages; pfn++ )
        i += (p2m[pfn] == si->store_mfn) + (p2m[pfn] == si->console.domU.mfn);
    if ( i != 2 )
        test_fail("store/console mfns not both in the p2m (%lu found)", i);
    if ( si->store_evtchn == 0 || si->console.domU.evtchn == 0 ||
         si->store_evtchn == si->console.domU.evtchn )
        test_fail("ports: store %u, console %u", si->store_evtchn,
                  si->console.domU.evtchn);

    /* Bootstrap page tables: present, read-only; the rest writable. */
    for ( i = 0; i < si->nr_pt_frames; i++ )
    {
        va = si->pt_base + i * PAGE_SIZE;
        if ( probe_read((void *)va) )
            test_fail("page table %#lx not readable", va);
        if ( exinfo_vector(probe_write((void *)va)) != X86_EXC_PF )
            test_fail("page table %#lx is writable", va);
    }
    /* The mapping goes at least 512 KiB past the last bootstrap page. */
    end = si->pt_base + (si->nr_pt_frames + 1) * PAGE_SIZE;
    for ( va = (unsigned long)si; va < end + (512UL << 10); va += PAGE_SIZE )
        if ( (va < si->pt_base || va >= si->pt_base +
              si->nr_pt_frames * PAGE_SIZE) && probe_write((void *)va) )
        {
            test_fail("%#lx in the initial mapping not writable", va);
            break;
        }

    for ( i = 0; i < sizeof(bss_probe); i++ )
        if ( bss_probe[i] )
        {
            test_fail(".bss not zeroed at +%lu", i);
            break;
        }

    /* The initrd is mapped, after the kernel, with its contents. */
    initrd = (const char *)si->mod_start;
    if ( !si->mod_start || si->mod_len != 139 ||
         si->mod_start < (unsigned long)_end )
        test_fail("module at %#lx, %lu bytes", si->mod_start, si->mod_len);
    else if ( strncmp(initrd, "This is pvshim's demo module.", 29) )
        test_fail("initrd contents \"%.29s\"", initrd);

    if ( strcmp((const char *)si->cmd_line, "console=hvc0 one=1 -- two") )
        test_fail("cmd_line \"%s\"", (const char *)si->cmd_line);

    /* The M2P is the guest's to read, never to write. */
    if ( exinfo_vector(probe_write((void *)m2p)) != X86_EXC_PF )
        test_fail("the M2P is writable");
    test_success();
}
