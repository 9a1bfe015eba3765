/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The grant table's frames and sizes as Xen answers a PV domU:
 * query_size (1 frame at first, 64 at most), setup_table growing it,
 * get_version, the frames' rules (the guest maps them writable, can't
 * make one a page table), and every refusal: count != 1, bad pointers,
 * domain 0 (permission_denied), unknown domains, too many frames,
 * continuation bits on a sub-op that takes none, negative counts,
 * unknown and removed sub-ops, and XENMEM_add_to_physmap (-EACCES for a
 * guest that isn't translated).
 */
#include "grant.h"

const char test_title[] = "grant tables: setup_table, query_size, limits";

static void test_query_size(void)
{
    struct gnttab_query_size q = { .dom = DOMID_SELF };

    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.status, GNTST_okay);
    check_rc(q.nr_frames, 1);
    check_rc(q.max_nr_frames, 64);
    q.dom = GNT_SELF_ID;
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.status, GNTST_okay);
    q.dom = 0;
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.status, GNTST_permission_denied);
    q.dom = 7;
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.status, GNTST_bad_domain);
    q.dom = DOMID_SELF;
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 0), -XEN_EINVAL);
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 2), -XEN_EINVAL);
    check_rc(gnttab_op(GNTTABOP_query_size, BAD_XEN, 1), -XEN_EFAULT);
    check_rc(gnttab_op(GNTTABOP_query_size, BAD_UNMAPPED, 1), -XEN_EFAULT);
}

static void test_setup_table(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 3 };
    struct gnttab_query_size q = { .dom = DOMID_SELF };
    xen_pfn_t frames[65];
    unsigned int i;

    set_xen_guest_handle(st.frame_list, frames);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.nr_frames, 3);
    for ( i = 0; i < 3; i++ )
        if ( is_guest_frame(frames[i]) || mfn_to_pfn(frames[i]) != ~0UL )
            test_fail("grant frame %u (%#lx) has a pfn", i,
                      (unsigned long)frames[i]);

    /* Fewer frames than the table has: the first ones, no shrinking. */
    st.nr_frames = 1;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.nr_frames, 3);

    st.nr_frames = 65;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_general_error);
    st.nr_frames = 64;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);
    check_rc(gnttab_op(GNTTABOP_query_size, &q, 1), 0);
    check_rc(q.nr_frames, 64);

    st.dom = 0;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_permission_denied);
    st.dom = 9;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_bad_domain);
    st.dom = GNT_SELF_ID;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 2), -XEN_EINVAL);
    check_rc(gnttab_op(GNTTABOP_setup_table, BAD_XEN, 1), -XEN_EFAULT);

    /* The frame list: outside the guest is -EFAULT, unmapped a status. */
    set_xen_guest_handle(st.frame_list, BAD_XEN);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), -XEN_EFAULT);
    set_xen_guest_handle(st.frame_list, BAD_UNMAPPED);
    st.status = 99;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
#ifdef __x86_64__
    check_rc(st.status, GNTST_bad_virt_addr);
#else
    /* Xen's compat_grant_table_op() writes the list out after the fact
     * and ignores a failure: (void)__copy_to_compat_offset(). */
    check_rc(st.status, GNTST_okay);
#endif
    st.nr_frames = 0;
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);
}

static void test_frames(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 1 };
    xen_pfn_t frame;

    set_xen_guest_handle(st.frame_list, &frame);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    gnt_setup(2);
    gnt_v1[5].frame = 0x1234;
    check_rc(gnt_v1[5].frame, 0x1234);
    /* A frame shared with the guest is never a page table. */
    check_rc(pin_table(1, frame), -XEN_EINVAL);
    gnt_unmap_all();
    check_rc(pin_table(1, frame), -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_PIN_L1_TABLE + PT_LEVELS - 1, frame),
             -XEN_EINVAL);
    /* Read-only mappings of it are as good. */
    check_rc(map_frame_at((unsigned long)gnt_v1, frame, PTE_RO), 0);
    check_rc(gnt_v1[5].frame, 0x1234);
    gnt_unmap_all();
    check_rc(remap_initial((unsigned long)gnt_v1), 0);
}

static void test_dispatch(void)
{
    struct gnttab_query_size q = { .dom = DOMID_SELF };
    struct gnttab_get_version gv = { .dom = DOMID_SELF };

    check_rc(gnttab_op(GNTTABOP_query_size | (1u << 12), &q, 1),
             -XEN_EINVAL);
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, &q, 0x80000000UL),
             -XEN_EINVAL);
    check_rc(gnttab_op(GNTTABOP_dump_table, &q, 1), -XEN_ENOSYS);
    check_rc(gnttab_op(13, &q, 1), -XEN_ENOSYS);
    check_rc(gnttab_op(0xfff, &q, 1), -XEN_ENOSYS);
    /*
     * Batches check their array's address first (even for count 0).  For
     * a 32-bit guest map_grant_ref is the native op (same layout), and
     * __addr_ok() takes any 32-bit address: count 0 reads nothing.
     */
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, BAD_XEN, 1), -XEN_EFAULT);
#ifdef __x86_64__
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, BAD_XEN, 0), -XEN_EFAULT);
#else
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, BAD_XEN, 0), 0);
#endif
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, &q, 0), 0);
#ifdef __x86_64__
    check_rc(gnttab_op(GNTTABOP_copy, (void *)((1UL << 47) - 8), 1),
             -XEN_EFAULT);
#else
    check_rc(gnttab_op(GNTTABOP_copy, (void *)(HYPERVISOR_VIRT_START - 8),
                       1), -XEN_EFAULT);
#endif

    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc(gv.version, 1);
    gv.dom = 0;
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), -XEN_EPERM);
    gv.dom = 3;
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), -XEN_ESRCH);
    check_rc(gnttab_op(GNTTABOP_get_version, BAD_XEN, 1), -XEN_EFAULT);
    check_rc(gnt_set_version(3), -XEN_EINVAL);
    check_rc(gnt_set_version(0), -XEN_EINVAL);
    check_rc(gnt_set_version(1), 0);
    check_rc(gnttab_op(GNTTABOP_set_version, BAD_XEN, 1), -XEN_EFAULT);
}

static void test_add_to_physmap(void)
{
    struct xen_add_to_physmap xatp = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_grant_table,
        .idx = 0, .gpfn = 0x100,
    };
    struct xen_add_to_physmap_batch b = {
        .domid = DOMID_SELF, .space = XENMAPSPACE_grant_table,
    };

#define MEMOP(op, arg) HYPERCALL(__HYPERVISOR_memory_op, op, arg, 0, 0, 0)
    check_rc(MEMOP(XENMEM_add_to_physmap, &xatp), -XEN_EACCES);
    xatp.idx = 0 | XENMAPIDX_grant_table_status;
    check_rc(MEMOP(XENMEM_add_to_physmap, &xatp), -XEN_EACCES);
    xatp.space = XENMAPSPACE_shared_info;
    check_rc(MEMOP(XENMEM_add_to_physmap, &xatp), -XEN_EACCES);
    xatp.domid = 0;
    check_rc(MEMOP(XENMEM_add_to_physmap, &xatp), -XEN_EACCES);
    xatp.domid = 5;
    check_rc(MEMOP(XENMEM_add_to_physmap, &xatp), -XEN_ESRCH);
    xatp.space = XENMAPSPACE_gmfn_foreign;
    check_rc(MEMOP(XENMEM_add_to_physmap, &xatp), -XEN_ENOSYS);
    check_rc(MEMOP(XENMEM_add_to_physmap, BAD_XEN), -XEN_EFAULT);
    check_rc(MEMOP(XENMEM_add_to_physmap | (1UL << 22), &xatp), -XEN_EDOM);
    check_rc(MEMOP(XENMEM_add_to_physmap_batch, &b), -XEN_EACCES);
    b.space = XENMAPSPACE_gmfn_range;
    check_rc(MEMOP(XENMEM_add_to_physmap_batch, &b), -XEN_EOPNOTSUPP);
#undef MEMOP
}

void test_main(void)
{
    test_query_size();
    test_dispatch();
    test_setup_table();
    test_frames();
    test_add_to_physmap();
    test_success();
}
