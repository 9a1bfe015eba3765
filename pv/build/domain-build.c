/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV domain builder: the guest's start-of-day state exactly as Xen's
 * builders make it (xen/arch/x86/pv/dom0_build.c for the layout,
 * tools/libs/guest/xg_dom_x86.c for a domU's console and xenstore pages).
 * xen/include/public/xen.h, "Start-of-day memory layout", is the contract.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/io/console.h>
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/pv.h"
#include "pv/build/build.h"
#include "pv/domain.h"
#include "pv/build/elf.h"
#include "pv/compat/layout.h"
#include "pv/mm/mm.h"
#include "pv/lifecycle.h"
#include "pv/lockprof.h"
#include "shim/boot-info.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"
#include "shim/param.h"

/* guest-mem=<size>: the guest's memory (default: what the shim can spare). */
static uint64_t opt_guest_mem;
size_param("guest-mem", opt_guest_mem);


#define L4_SHIFT 39
#define L3_SHIFT 30
#define L2_SHIFT 21

static noreturn void refuse(const char *fmt, ...) __printf(1, 2);
static noreturn void refuse(const char *fmt, ...)
{
    char msg[200];
    va_list args;

    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);
    printk(XENLOG_ERR "d1: guest kernel refused: %s\n", msg);
    machine_halt(SHIM_EXIT_BAD_GUEST);
}

/* Page tables needed to map [s, e) with 4 KiB pages: Xen's NR() sums. */
static unsigned long nr_tables(unsigned long s, unsigned long e,
                               unsigned int shift)
{
    unsigned long m = (1UL << shift) - 1;

    return (((e + m) & ~m) - (s & ~m)) >> shift;
}

/*
 * Xen's layout: kernel (with its BSD_SYMTAB symbols, as libxc's virt_kend),
 * initrd, p2m, start_info, page tables, stack.
 */
static void compute_layout(struct pv_layout *l, const struct pv_kernel *k,
                           unsigned long nr_pages, uint64_t initrd_len,
                           bool initrd_mapped)
{
    unsigned long pt, need;
    /* A 32-bit guest's p2m entries are 4 bytes (its unsigned long). */
    unsigned int p2m_entry = k->compat ? 4 : sizeof(unsigned long);

    l->v_start = k->virt_base;
    l->kern_start = k->vstart;
    l->kern_end = k->symtab.loaded ? k->symtab.end : k->vend;
    l->initrd_start = ROUNDUP(l->kern_end, PAGE_SIZE);
    l->initrd_end = l->initrd_start + (initrd_mapped ? initrd_len : 0);
    l->p2m_start = ROUNDUP(l->initrd_end, PAGE_SIZE);
    l->p2m_end = l->p2m_start;
    /* libxc ignores an INIT_P2M at or above the kernel, or unaligned. */
    l->p2m_apart = !k->compat && k->init_p2m != PV_ELF_UNSET &&
                   k->init_p2m < k->virt_base && !(k->init_p2m & 0xfff);
    l->p2m_pages = ROUNDUP(nr_pages * p2m_entry, PAGE_SIZE) >> PAGE_SHIFT;
    if ( l->p2m_apart )
        l->p2m_va = k->init_p2m;
    else
        l->p2m_end += nr_pages * p2m_entry;
    l->start_info = ROUNDUP(l->p2m_end, PAGE_SIZE);
    l->xenstore = l->start_info + PAGE_SIZE;
    l->console = l->xenstore + PAGE_SIZE;
    l->pt_start = l->console + PAGE_SIZE;

    for ( pt = 2; ; pt++ )
    {
        l->pt_end = l->pt_start + pt * PAGE_SIZE;
        l->stack_end = l->pt_end + PAGE_SIZE;
        l->v_end = ROUNDUP(l->stack_end, 1UL << 22);
        if ( l->v_end - l->stack_end < (512UL << 10) )
            l->v_end += 1UL << 22;      /* at least 512 KiB of padding */
        /*
         * PAE: an L3, the L2s and L1s, and the L2 of slot 3 (the shim's
         * slots are in it) even if nothing of the guest's is mapped there.
         */
        if ( k->compat )
            need = 1 + nr_tables(l->v_start, l->v_end, L3_SHIFT) +
                   ((l->v_end - 1) >> L3_SHIFT != 3) +
                   nr_tables(l->v_start, l->v_end, L2_SHIFT);
        else
            need = 1 + nr_tables(l->v_start, l->v_end, L4_SHIFT) +
                   nr_tables(l->v_start, l->v_end, L3_SHIFT) +
                   nr_tables(l->v_start, l->v_end, L2_SHIFT);
        if ( need <= pt )
            break;
    }
    l->nr_pt = pt;
}

static void check_layout(const struct pv_layout *l, unsigned long nr_pages,
                         bool compat)
{
    unsigned long need = (l->v_end - l->v_start) >> PAGE_SHIFT;

    if ( compat && (l->v_end < l->v_start ||
                    l->v_end > COMPAT_HYPERVISOR_VIRT_START) )
        refuse("initial mapping %#lx-%#lx reaches the hypervisor hole at "
               "%#x", l->v_start, l->v_end, COMPAT_HYPERVISOR_VIRT_START);

    if ( l->v_end < l->v_start ||
         !(l->v_end <= (1UL << 47) || l->v_start >= HYPERVISOR_VIRT_END) )
        refuse("initial mapping %#lx-%#lx is not in guest address space",
               l->v_start, l->v_end);
    if ( need > nr_pages )
        refuse("its initial mapping needs %lu MiB, the guest has %lu MiB",
               need >> 8, nr_pages >> 8);
}

/*
 * What follows the initial mapping in pfn order (libxc's order): an
 * initrd left unmapped (MOD_START_PFN), then an INIT_P2M p2m and the
 * tables that map it.  All of it must fit in the guest's pages.
 */
static void layout_after_mapping(struct pv_layout *l, unsigned long nr_pages,
                                 unsigned long initrd_pages)
{
    unsigned long pfn = ((l->v_end - l->v_start) >> PAGE_SHIFT) + initrd_pages;
    unsigned long end = l->p2m_va + (l->p2m_pages << PAGE_SHIFT);

    if ( initrd_pages && pfn > nr_pages )
        refuse("its %lu KiB initrd doesn't fit in the guest's %lu MiB",
               initrd_pages << 2, nr_pages >> 8);
    if ( !l->p2m_apart )
        return;
    if ( end < l->p2m_va || end > l->v_start ||
         !(end <= (1UL << 47) || l->p2m_va >= HYPERVISOR_VIRT_END) )
        refuse("INIT_P2M %#lx-%#lx is not in guest address space below "
               "the kernel", l->p2m_va, end);
    l->p2m_pfn = pfn;
    l->p2m_tables = pv_p2m_tables_needed(l);
    if ( pfn + l->p2m_pages + l->p2m_tables > nr_pages )
        refuse("its INIT_P2M p2m doesn't fit in the guest's %lu MiB",
               nr_pages >> 8);
}

/* The kernel must ask only for what we give. */
static void check_features(const struct pv_kernel *k)
{
    unsigned int f;

    for ( f = 0; f < 32 * XENFEAT_NR_SUBMAPS; f++ )
        if ( pv_elf_feature_required(k, f) && !pv_feature_supported(f) )
            refuse("it requires Xen feature %u (%s), which pvshim lacks", f,
                   pv_feature_name(f));
}

/*
 * The guest's pages: guest-mem=, or what the shim can spare.  Either way
 * the shim keeps PV_SHIM_RESERVE_PAGES, so a big guest-mem= is cut down, not
 * fatal.  (The builder's p2m is a list of runs: no frames of its own.)
 */
static unsigned long guest_pages(void)
{
    unsigned long avail = frames_free_count(), limit, want;

    limit = avail - MIN(avail, PV_SHIM_RESERVE_PAGES);
    want = opt_guest_mem ? opt_guest_mem >> PAGE_SHIFT : limit;
    if ( want > limit )
    {
        printk(XENLOG_WARNING "guest-mem: %lu MiB asked, %lu MiB can be "
               "given\n", want >> 8, limit >> 8);
        want = limit;
    }
    return want;
}

static void print_layout(const struct pv_layout *l, const struct pv_kernel *k)
{
    printk("VIRTUAL MEMORY ARRANGEMENT:\n");
    printk(" Loaded kernel: %016lx->%016lx\n", l->kern_start, l->kern_end);
    if ( l->initrd_end > l->initrd_start )
        printk(" Init. ramdisk: %016lx->%016lx\n", l->initrd_start,
               l->initrd_end);
    if ( l->p2m_apart )
        printk(" Phys-Mach map: %016lx->%016lx (INIT_P2M, pfn %#lx, "
               "%lu tables)\n", l->p2m_va,
               l->p2m_va + (l->p2m_pages << PAGE_SHIFT), l->p2m_pfn,
               l->p2m_tables);
    else
        printk(" Phys-Mach map: %016lx->%016lx\n", l->p2m_start, l->p2m_end);
    printk(" Start info:    %016lx->%016lx\n", l->start_info,
           l->start_info + PAGE_SIZE);
    printk(" Xenstore/cons: %016lx->%016lx\n", l->xenstore, l->pt_start);
    printk(" Page tables:   %016lx->%016lx\n", l->pt_start, l->pt_end);
    printk(" Boot stack:    %016lx->%016lx\n", l->pt_end, l->stack_end);
    printk(" TOTAL:         %016lx->%016lx\n", l->v_start, l->v_end);
    printk(" ENTRY ADDRESS: %016lx\n", (unsigned long)k->entry);
}

void pv_domain_build(struct boot_info *bi)
{
    static struct pv_kernel k;
    static struct pv_layout l;
    static struct pv_image img;
    char msg[160];
    const struct boot_module *kern = &bi->mods[0];
    const struct boot_module *initrd = bi->nr_modules > 1 ? &bi->mods[1]
                                                          : NULL;
    const char *why;
    unsigned long nr_pages;
    bool initrd_mapped;

    if ( !bi->nr_modules )
        refuse("no guest kernel module given");
    printk("*** Building a PV Dom1 ***\n");
    pv_domain_init(pv_max_vcpus());
    pv_domain_locks_init(&dom);
    pv_watchdog_init(&dom);
    if ( pv_kernel_image(kern, &img, msg, sizeof(msg)) )
        refuse("%s", msg);
    if ( pv_elf_parse(img.data, img.size, &k, &why) )
        refuse("%s%s", img.bzimage ? "its bzImage payload: " : "", why);
    printk(" Dom1 kernel: %s, lsb, %s %s, %s notes\n",
           k.compat ? "32-bit, PAE" : "64-bit",
           k.guest_os[0] ? k.guest_os : "?", k.guest_version,
           k.has_xen_notes ? "Xen" : "__xen_guest");
    if ( k.symtab.loaded )
        printk(" Dom1 symbol map %#lx -> %#lx\n",
               (unsigned long)k.symtab.start, (unsigned long)k.symtab.end);
    else if ( k.bsd_symtab )
        printk(XENLOG_WARNING "d1: BSD_SYMTAB: no symbols loaded: %s\n",
               k.symtab_why);
    check_features(&k);
    if ( k.compat )
        pv_compat_domain_init(&dom);

    nr_pages = guest_pages();
    initrd_mapped = initrd && !k.mod_start_pfn;
    compute_layout(&l, &k, nr_pages, initrd ? initrd->size : 0,
                   initrd_mapped);
    check_layout(&l, nr_pages, k.compat);
    layout_after_mapping(&l, nr_pages, initrd && !initrd_mapped ?
                         ROUNDUP(initrd->size, PAGE_SIZE) >> PAGE_SHIFT : 0);
    print_layout(&l, &k);

    pv_alloc_shared_info(&dom);
    pv_alloc_guest_memory(&dom, nr_pages);
    pv_load_kernel(&dom, &l, &k, img.data);
    pv_build_page_tables(&dom, &l);
    if ( l.p2m_apart )
        pv_map_p2m(&dom, &l);
    pv_setup_start_info(&dom, &l, &k, bi, initrd);
    pv_setup_vcpu(&dom, &l, &k);
    pv_mm_adopt_initial_tables(&dom.vcpu[0]);
    pv_kernel_image_free(&img);
    printk("Dom1: %lu MiB, %lu pages; entering the guest at %#lx\n",
           nr_pages >> 8, nr_pages, (unsigned long)k.entry);
}
