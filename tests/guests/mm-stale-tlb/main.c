/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * No stale writable translation of a frame may survive it becoming a page
 * table: the guest maps a frame writable, touches it (the TLB now holds a
 * writable translation), removes the mapping WITHOUT flushing, and pins
 * the frame as an L1.  A write through the old address must then fault;
 * if it landed, the guest could write entries into a validated page table.
 * The shim must flush for the guest here (the frame's type stamp).  So
 * too before such a frame holds descriptors (set_gdt).
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "No stale writable TLB entry survives a pin";

static uint8_t window[PAGE_SIZE] __page_aligned;

void test_main(void)
{
    unsigned long w = (unsigned long)window, f = alloc_frame();
    volatile uint64_t *p = (volatile uint64_t *)window;
    uint64_t e;
    exinfo_t ex;

    check_rc(map_frame_at(w, f, PTE_RW), 0);
    p[0] = 0;                           /* a writable translation, cached */
    check_rc(hypercall_update_va_mapping(w, 0, UVMF_NONE),
             0);                        /* unmapped, deliberately unflushed */

    check_rc(pin_table(1, f), 0);

    /* Any byte landing in entry 5 would be a write to a validated table. */
    ex = probe_write((void *)&p[5]);
    if ( !ex )
        test_fail("a write through the stale address landed in a pinned L1");
    else if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("writing through the stale address: vector %u",
                  exinfo_vector(ex));

    frame_read(f, 5 * 8, &e, sizeof(e));
    if ( e )
        test_fail("the pinned L1 changed: entry 5 is %#llx",
                  (unsigned long long)e);

    check_rc(unpin_table(f), 0);

    /*
     * The same for descriptors: a frame that was writable a moment ago
     * becomes a GDT frame (an LDT frame the CPU itself would read).
     */
    check_rc(map_frame_at(w, f, PTE_RW), 0);
    frame_fill(f, 0);
    p[0] = 0;
    check_rc(hypercall_update_va_mapping(w, 0, UVMF_NONE), 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_gdt, &f, 512, 0, 0, 0), 0);
    ex = probe_write((void *)&p[5]);
    if ( !ex )
        test_fail("a write through the stale address landed in a GDT frame");
    check_rc(HYPERCALL(__HYPERVISOR_set_gdt, NULL, 0, 0, 0, 0), 0);

    check_rc(remap_initial(w), 0);
    test_success();
}
