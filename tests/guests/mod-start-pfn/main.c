/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel with the MOD_START_PFN and INIT_P2M notes, as Linux has them:
 * the initrd is left out of the initial mapping and handed over by pfn
 * (SIF_MOD_START_PFN, mod_start the first pfn after the mapping), as
 * libxc does.  INIT_P2M asks for the p2m at 512 GiB, which is not below
 * this kernel's VIRT_BASE of 0, so libxc (and pvshim) ignore it: the p2m
 * stays in the initial mapping and first_p2m_pfn/nr_p2m_frames are 0.
 * (Debian's Linux, whose VIRT_BASE is high, gets its p2m at 512 GiB:
 * tests/boot/linux.sh.)  Booted with an initrd (see expect).
 */
#include "guest.h"
#include "mm.h"
#include <xen/elfnote.h>

#define STR(x)  #x
#define XSTR(x) STR(x)
#define NOTE(type, desc)                                                   \
    ".pushsection .note.Xen, \"a\", @note\n"                               \
    ".balign 4\n"                                                          \
    ".long 4, 8, " XSTR(type) "\n"                                         \
    ".asciz \"Xen\"\n"                                                     \
    ".balign 4\n"                                                          \
    ".quad " desc "\n"                                                     \
    ".popsection\n"
asm ( NOTE(XEN_ELFNOTE_MOD_START_PFN, "1")
      NOTE(XEN_ELFNOTE_INIT_P2M, "0x8000000000") );

const char test_title[] = "MOD_START_PFN: the initrd by pfn; INIT_P2M ignored";

static const unsigned long *m2p = (const void *)MACH2PHYS_VIRT_START;

void test_main(void)
{
    const start_info_t *si = start_info;
    const unsigned long *p2m = (const void *)si->mfn_list;
    unsigned long end_pfn = initial_mapping_end() >> PAGE_SHIFT, pfn;
    char head[29];

    if ( !(si->flags & SIF_MOD_START_PFN) )
        test_fail("flags %#x: no SIF_MOD_START_PFN", si->flags);
    if ( si->mod_start != end_pfn )
        test_fail("mod_start %#lx: not the first pfn after the initial "
                  "mapping (%#lx)", si->mod_start, end_pfn);
    if ( si->mod_len != 139 )
        test_fail("mod_len %lu, wanted 139", si->mod_len);
    else
    {
        frame_read(pfn_to_mfn(si->mod_start), 0, head, sizeof(head));
        if ( memcmp(head, "This is pvshim's demo module.", sizeof(head)) )
            test_fail("initrd contents \"%.29s\"", head);
    }

    /* INIT_P2M ignored: the p2m is where it always is. */
    if ( si->mfn_list >= end_pfn << PAGE_SHIFT || si->mfn_list < 0x100000 )
        test_fail("mfn_list %#lx outside the initial mapping", si->mfn_list);
    if ( si->first_p2m_pfn || si->nr_p2m_frames )
        test_fail("first_p2m_pfn %#lx, nr_p2m_frames %lu: wanted 0",
                  si->first_p2m_pfn, si->nr_p2m_frames);
    for ( pfn = 0; pfn < si->nr_pages; pfn++ )
        if ( m2p[p2m[pfn]] != pfn )
        {
            test_fail("m2p[p2m[%#lx]] = %#lx", pfn, m2p[p2m[pfn]]);
            break;
        }
    test_success();
}
