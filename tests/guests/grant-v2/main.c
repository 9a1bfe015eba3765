/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant table v2 and version switches as Xen does them: status frames
 * (one per 8 shared frames, shared read-write), get_status_frames and its
 * errors, GTF_reading/GTF_writing in the status frame rather than the
 * entry, the reserved entries carried across a switch (the rest
 * cleared), -ERANGE for a reserved v2 entry v1 can't hold, and -EBUSY
 * for a switch back while the guest still maps a status frame, any of
 * them (the ones before it left the guest's as they were).
 */
#include "grant.h"

const char test_title[] = "grant tables: v2, status frames, version switch";

static uint8_t data[PAGE_SIZE] __gnt_page;
static uint8_t win[PAGE_SIZE] __gnt_page;
static uint8_t win2[PAGE_SIZE] __gnt_page;

static long get_status_frames(domid_t dom, unsigned int nr, uint64_t *list,
                              int16_t *status)
{
    struct gnttab_get_status_frames gs = { .dom = dom, .nr_frames = nr };
    long rc;

    set_xen_guest_handle(gs.frame_list, list);
    gs.status = 99;
    rc = gnttab_op(GNTTABOP_get_status_frames, &gs, 1);
    *status = gs.status;
    return rc;
}

static void test_status_frames(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 9 };
    struct gnttab_get_status_frames gs = { .dom = DOMID_SELF };
    xen_pfn_t frames[9];
    uint64_t list[3];
    int16_t status;

    check_rc(get_status_frames(DOMID_SELF, 1, list, &status), 0);
    check_rc(status, GNTST_okay);
    check_rc(get_status_frames(DOMID_SELF, 2, list, &status), 0);
    check_rc(status, GNTST_general_error);
    set_xen_guest_handle(st.frame_list, frames);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);
    check_rc(get_status_frames(DOMID_SELF, 2, list, &status), 0);
    check_rc(status, GNTST_okay);
    if ( list[0] == list[1] || is_guest_frame(list[0]) )
        test_fail("status frames %#lx %#lx", (unsigned long)list[0],
                  (unsigned long)list[1]);
    check_rc(get_status_frames(DOMID_SELF, 3, list, &status), 0);
    check_rc(status, GNTST_general_error);
    check_rc(get_status_frames(0, 1, list, &status), 0);
    check_rc(status, GNTST_permission_denied);
    check_rc(get_status_frames(12, 1, list, &status), 0);
    check_rc(status, GNTST_bad_domain);
#ifdef __x86_64__
    /* The list is only written to: a status for it. */
    check_rc(get_status_frames(DOMID_SELF, 1, BAD_XEN, &status), 0);
    check_rc(status, GNTST_bad_virt_addr);
    check_rc(get_status_frames(DOMID_SELF, 0, BAD_XEN, &status), 0);
    check_rc(status, GNTST_okay);
#else
    /*
     * The compat translation checks the list first (compat_handle_okay(),
     * its last byte below HYPERVISOR_VIRT_START; for 0 frames the byte
     * before it): -EFAULT, no status.
     */
    check_rc(get_status_frames(DOMID_SELF, 1, BAD_XEN, &status),
             -XEN_EFAULT);
    check_rc(status, 99);
    check_rc(get_status_frames(DOMID_SELF, 0, BAD_XEN, &status),
             -XEN_EFAULT);
    check_rc(status, 99);
#endif
    check_rc(gnttab_op(GNTTABOP_get_status_frames, &gs, 2), -XEN_EINVAL);
    check_rc(gnttab_op(GNTTABOP_get_status_frames, BAD_XEN, 1),
             -XEN_EFAULT);
    /* A status frame is no more a page table than a shared one. */
    check_rc(pin_table(1, list[0]), -XEN_EINVAL);
}

static void test_map_v2(void)
{
    struct gnttab_map_grant_ref op;
    unsigned long mfn = virt_to_mfn(data);

    gnt_grant(2, 30, GNT_SELF_ID, mfn, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 30, GNTMAP_host_map,
                      (unsigned long)win), GNTST_okay);
    check_rc(gnt_status_bits(2, 30), GTF_reading | GTF_writing);
    check_rc(gnt_v2[30].hdr.flags, GTF_permit_access);
    check_rc(gnt_set_version(1), -XEN_EBUSY);
    check_rc(gnt_unmap1((unsigned long)win, op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(2, 30), 0);
    check_rc(remap_initial((unsigned long)win), 0);

    /* Sub-page grants can't be mapped; they can be a copy's source. */
    gnt_v2[31].sub_page.frame = mfn;
    gnt_v2[31].sub_page.page_off = 64;
    gnt_v2[31].sub_page.length = 64;
    gnt_v2[31].hdr.domid = GNT_SELF_ID;
    gnt_v2[31].hdr.flags = GTF_permit_access | GTF_sub_page;
    check_rc(gnt_map1(&op, GNT_SELF_ID, 31, GNTMAP_host_map,
                      (unsigned long)win), GNTST_general_error);
    check_rc(gnt_status_bits(2, 31), 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 256 * 9, GNTMAP_host_map,
                      (unsigned long)win), GNTST_bad_gntref);
    check_rc(remap_initial((unsigned long)win), 0);
}

/*
 * Nine shared frames, two status frames; only the second mapped.  The
 * switch back takes the frames one by one and stops at the second: the
 * first, taken on the way, is the guest's again (it maps it; mm-audit
 * recounts it), and once both are unmapped the switch goes through.
 */
static void test_second_status_frame(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 9 };
    xen_pfn_t frames[9];
    uint64_t list[2];
    int16_t status;

    gnt_unmap_all();
    set_xen_guest_handle(st.frame_list, frames);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);
    check_rc(get_status_frames(DOMID_SELF, 2, list, &status), 0);
    check_rc(status, GNTST_okay);
    check_rc(map_frame_at((unsigned long)win2, list[1], PTE_RO), 0);
    check_rc(gnt_set_version(1), -XEN_EBUSY);
    check_rc(map_frame_at((unsigned long)win, list[0], PTE_RO), 0);
    check_rc(remap_initial((unsigned long)win), 0);
    check_rc(remap_initial((unsigned long)win2), 0);
    check_rc(gnt_set_version(1), 0);
    check_rc(gnt_set_version(2), 0);
    check_rc(get_status_frames(DOMID_SELF, 2, list, &status), 0);
    check_rc(status, GNTST_okay);
    gnt_setup(1);
}

static void test_switch_back(void)
{
    struct gnttab_get_version gv = { .dom = DOMID_SELF };
    unsigned long mfn = virt_to_mfn(data);
    int16_t status;
    uint64_t list[1];

    gnt_grant(2, 3, GNT_SELF_ID, mfn, GTF_readonly);
    gnt_grant(2, 40, GNT_SELF_ID, mfn, 0);
    /* Mapped status frame: refused, nothing changed. */
    check_rc(gnt_set_version(1), -XEN_EBUSY);
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc(gv.version, 2);
    /* A reserved entry with a frame past 32 bits: v1 can't hold it. */
    gnt_unmap_all();
    gnt_setup(1);
    gnt_v2[5].full_page.frame = UINT64_C(1) << 32;
    gnt_v2[5].hdr.flags = GTF_permit_access;
    check_rc(gnt_set_version(1), -XEN_ERANGE);
    gnt_v2[5].hdr.flags = 0;
    gnt_unmap_all();
    check_rc(gnt_set_version(1), 0);
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc(gv.version, 1);
    gnt_setup(1);
    check_rc(gnt_v1[3].frame, mfn);
    check_rc(gnt_v1[3].domid, GNT_SELF_ID);
    check_rc(gnt_v1[3].flags, GTF_permit_access | GTF_readonly);
    check_rc(gnt_v1[40].flags, 0);
    check_rc(gnt_v1[40].frame, 0);
    check_rc(get_status_frames(DOMID_SELF, 1, list, &status), 0);
    check_rc(status, GNTST_general_error);
    check_rc(get_status_frames(DOMID_SELF, 0, list, &status), 0);
    check_rc(status, GNTST_okay);

    /* And forth again: the reserved entry in v2 form. */
    gnt_unmap_all();
    check_rc(gnt_set_version(2), 0);
    gnt_setup(1);
    check_rc(gnt_v2[3].full_page.frame, mfn);
    check_rc(gnt_v2[3].hdr.flags, GTF_permit_access | GTF_readonly);
    check_rc(gnt_status[3], 0);
}

void test_main(void)
{
    struct gnttab_set_version sv = { .version = 2 };
    struct gnttab_get_version gv = { .dom = DOMID_SELF };

    check_rc(gnttab_op(GNTTABOP_set_version, &sv, 1), 0);
    check_rc(sv.version, 2);
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc(gv.version, 2);
    sv.version = 7;
    check_rc(gnttab_op(GNTTABOP_set_version, &sv, 1), -XEN_EINVAL);
    check_rc(sv.version, 2);
    check_rc(gnt_set_version(2), 0);
    gnt_setup(1);
    test_status_frames();
    test_map_v2();
    test_second_status_frame();
    test_switch_back();
    test_success();
}
