/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/grant/grant-rules.c: which grant entries may be pinned
 * for whom (v1 and v2, maps and copies, read-only grants, entries already
 * pinned), the flags a v1 pin writes, a grant mapping's PTE flags with
 * the avail bits, and the status-frame count.
 */
/* The shim's build says which Xen interface; the v2 types need it. */
#ifndef __XEN_INTERFACE_VERSION__
#define __XEN_INTERFACE_VERSION__ 0x00040e00
#endif

#include "tests/unit/unit.h"

#include "pv/grant/grant-rules.c"

#define ME      1
#define PA      GTF_permit_access

static int v1(uint16_t flags, domid_t domid, bool pinned, bool ro,
              bool map, uint16_t *out)
{
    return gnt_v1_pin_flags(flags, domid, pinned, ro, map, ME, out);
}

static void test_v1_unpinned(void)
{
    uint16_t f = 0;

    CHECK_EQ(v1(PA, ME, false, false, true, &f), GNTST_okay);
    CHECK_EQ(f, PA | GTF_reading | GTF_writing);
    CHECK_EQ(v1(PA, ME, false, true, true, &f), GNTST_okay);
    CHECK_EQ(f, PA | GTF_reading);
    CHECK_EQ(v1(PA | GTF_readonly, ME, false, true, true, &f), GNTST_okay);
    CHECK_EQ(f, PA | GTF_readonly | GTF_reading);
    CHECK_EQ(v1(PA | GTF_readonly, ME, false, false, true, &f),
             GNTST_general_error);
    /* Wrong domain, no grant, transfer and transitive types. */
    CHECK_EQ(v1(PA, 0, false, true, true, &f), GNTST_general_error);
    CHECK_EQ(v1(GTF_invalid, ME, false, true, true, &f),
             GNTST_general_error);
    CHECK_EQ(v1(GTF_accept_transfer, ME, false, true, false, &f),
             GNTST_general_error);
    CHECK_EQ(v1(GTF_transitive, ME, false, true, false, &f),
             GNTST_general_error);
    /* Sub-page: refused to a map only. */
    CHECK_EQ(v1(PA | GTF_sub_page, ME, false, true, true, &f),
             GNTST_general_error);
    CHECK_EQ(v1(PA | GTF_sub_page, ME, false, true, false, &f), GNTST_okay);
}

static void test_v1_pinned(void)
{
    uint16_t f = 0;

    /* Already pinned: type and domid are not looked at again. */
    CHECK_EQ(v1(GTF_invalid, 7, true, false, true, &f), GNTST_okay);
    CHECK_EQ(f, GTF_reading | GTF_writing);
    CHECK_EQ(v1(GTF_readonly, 7, true, false, true, &f),
             GNTST_general_error);
    CHECK_EQ(v1(GTF_readonly, 7, true, true, true, &f), GNTST_okay);
}

static void test_v2(void)
{
    CHECK_EQ(gnt_v2_pin_check(PA, ME, false, false, true, ME), GNTST_okay);
    CHECK_EQ(gnt_v2_pin_check(GTF_transitive, ME, false, true, false, ME),
             GNTST_okay);
    /* Mapped never (mapflag): its frame field is a grant reference. */
    CHECK_EQ(gnt_v2_pin_check(GTF_transitive, ME, false, true, true, ME),
             GNTST_general_error);
    CHECK_EQ(gnt_v2_pin_check(PA | GTF_sub_page, ME, false, true, true, ME),
             GNTST_general_error);
    CHECK_EQ(gnt_v2_pin_check(PA | GTF_sub_page, ME, false, true, false, ME),
             GNTST_okay);
    CHECK_EQ(gnt_v2_pin_check(PA, 3, false, true, true, ME),
             GNTST_general_error);
    CHECK_EQ(gnt_v2_pin_check(GTF_accept_transfer, ME, false, true, true,
                              ME), GNTST_general_error);
    CHECK_EQ(gnt_v2_pin_check(PA | GTF_readonly, ME, false, false, true,
                              ME), GNTST_general_error);
    CHECK_EQ(gnt_v2_pin_check(GTF_readonly, 3, true, false, true, ME),
             GNTST_general_error);
    CHECK_EQ(gnt_v2_pin_check(0, 3, true, false, true, ME), GNTST_okay);
}

static void test_pte_flags(void)
{
    const uint64_t base = _PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_DIRTY;
    unsigned int avail;

    CHECK_EQ(gnt_pte_flags(GNTMAP_host_map, 0), base | _PAGE_RW);
    CHECK_EQ(gnt_pte_flags(GNTMAP_host_map, _PAGE_NX),
             base | _PAGE_RW | _PAGE_NX);
    CHECK_EQ(gnt_pte_flags(GNTMAP_host_map | GNTMAP_readonly, 0), base);
    CHECK_EQ(gnt_pte_flags(GNTMAP_host_map | GNTMAP_application_map, 0),
             base | _PAGE_RW | _PAGE_USER);
    /* contains_pte and device_map change nothing in the entry. */
    CHECK_EQ(gnt_pte_flags(GNTMAP_host_map | GNTMAP_contains_pte |
                           GNTMAP_device_map, 0), base | _PAGE_RW);
    for ( avail = 0; avail < 8; avail++ )
        CHECK_EQ(gnt_pte_flags(GNTMAP_host_map |
                               (avail << _GNTMAP_guest_avail0), 0),
                 base | _PAGE_RW | ((uint64_t)avail << 9));
    /* Avail bits past the PTE's three are dropped. */
    CHECK_EQ(gnt_pte_flags(GNTMAP_host_map | GNTMAP_guest_avail_mask, 0),
             base | _PAGE_RW | (7UL << 9));
}

static void test_status_frames(void)
{
    CHECK_EQ(gnt_status_frames(0), 0);
    CHECK_EQ(gnt_status_frames(1), 1);
    CHECK_EQ(gnt_status_frames(8), 1);
    CHECK_EQ(gnt_status_frames(9), 2);
    CHECK_EQ(gnt_status_frames(64), 8);
}

int main(void)
{
    RUN(test_v1_unpinned);
    RUN(test_v1_pinned);
    RUN(test_v2);
    RUN(test_pte_flags);
    RUN(test_status_frames);
    UNIT_EXIT();
}
