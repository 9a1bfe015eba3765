/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel with an INIT_P2M note below its VIRT_BASE, so that the p2m is
 * mapped apart, as libxc maps a domU's: mfn_list is the INIT_P2M address,
 * the list's frames follow the initial mapping in pfn order
 * (first_p2m_pfn, nr_p2m_frames), the mapping is writable and agrees with
 * the M2P.  This kernel's VIRT_BASE/PADDR_OFFSET notes (in
 * .note.Xen.override, after the library's, so they win) start the initial
 * mapping at 1 MiB, where the kernel is, and INIT_P2M asks for 0x40000:
 * the p2m shares its L3, L2 and L1 with the initial mapping, so
 * nr_p2m_frames is the list alone.  (Debian's Linux, at 512 GiB, needs
 * tables of its own: tests/boot/linux.sh.)  The library's page-table
 * walks assume VIRT_BASE 0, so this test uses none of them.
 */
#include "guest.h"
#include "mm.h"
#include <xen/elfnote.h>

#define P2M_VA      0x40000UL
#define VIRT_BASE   0x100000UL

#define STR(x)  #x
#define XSTR(x) STR(x)
#define NOTE(type, desc)                                                   \
    ".pushsection .note.Xen.override, \"a\", @note\n"                      \
    ".balign 4\n"                                                          \
    ".long 4, 8, " XSTR(type) "\n"                                         \
    ".asciz \"Xen\"\n"                                                     \
    ".balign 4\n"                                                          \
    ".quad " desc "\n"                                                     \
    ".popsection\n"
asm ( NOTE(XEN_ELFNOTE_VIRT_BASE, XSTR(VIRT_BASE))
      NOTE(XEN_ELFNOTE_PADDR_OFFSET, XSTR(VIRT_BASE))
      NOTE(XEN_ELFNOTE_INIT_P2M, XSTR(P2M_VA)) );

const char test_title[] = "INIT_P2M: the p2m mapped apart";

static const unsigned long *m2p = (const void *)MACH2PHYS_VIRT_START;

void test_main(void)
{
    const start_info_t *si = start_info;
    volatile unsigned long *p2m = (void *)si->mfn_list;
    unsigned long pages = (si->nr_pages * 8 + PAGE_SIZE - 1) >> PAGE_SHIFT;
    unsigned long pt_end_pfn, pfn, v;

    if ( si->mfn_list != P2M_VA )
        test_fail("mfn_list %#lx, wanted %#lx", si->mfn_list, P2M_VA);
    /* Pfn 0 is at VIRT_BASE; the p2m's pfns come after the mapping. */
    pt_end_pfn = (si->pt_base - VIRT_BASE + si->nr_pt_frames * PAGE_SIZE)
                 >> PAGE_SHIFT;
    if ( si->first_p2m_pfn <= pt_end_pfn ||
         si->first_p2m_pfn + pages > si->nr_pages )
        test_fail("first_p2m_pfn %#lx: not after the initial mapping",
                  si->first_p2m_pfn);
    if ( si->nr_p2m_frames != pages )
        test_fail("nr_p2m_frames %lu, wanted %lu (no tables of its own)",
                  si->nr_p2m_frames, pages);
    for ( pfn = 0; pfn < si->nr_pages; pfn++ )
        if ( m2p[p2m[pfn]] != pfn )
        {
            test_fail("m2p[p2m[%#lx]] = %#lx", pfn, m2p[p2m[pfn]]);
            break;
        }
    /* Writable, as libxc maps it. */
    v = p2m[0];
    p2m[0] = v ^ 1;
    if ( p2m[0] != (v ^ 1) )
        test_fail("the p2m mapping is not writable");
    p2m[0] = v;
    test_success();
}
