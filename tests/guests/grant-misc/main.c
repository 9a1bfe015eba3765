/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small grant sub-ops as Xen answers a PV domU: swap_grant_ref
 * (bad refs, busy refs, v1 and v2 entries with their status), cache_flush
 * (-ENOSYS on x86 since Xen 4.21, its continuation argument too), and
 * transfer, which Xen still implements for PV: a frame referenced only
 * by its allocation given back to the guest through an accept_transfer
 * entry, frames that can't be stolen, and failed transfers that cost the
 * guest the frame.
 */
#include "grant.h"

const char test_title[] = "grant tables: swap, cache_flush, transfer";

static uint8_t data[PAGE_SIZE] __gnt_page;

static int16_t swap1(grant_ref_t a, grant_ref_t b)
{
    gnttab_swap_grant_ref_t op = { .ref_a = a, .ref_b = b, .status = 99 };

    check_rc(gnttab_op(GNTTABOP_swap_grant_ref, &op, 1), 0);
    return op.status;
}

static void test_swap(void)
{
    struct gnttab_map_grant_ref m;
    unsigned long mfn = virt_to_mfn(data);

    gnt_grant(1, 70, GNT_SELF_ID, mfn, 0);
    gnt_grant(1, 71, 0, 0x1234, GTF_readonly);
    check_rc(swap1(70, 71), GNTST_okay);
    check_rc(gnt_v1[70].frame, 0x1234);
    check_rc(gnt_v1[70].flags, GTF_permit_access | GTF_readonly);
    check_rc(gnt_v1[71].frame, mfn);
    check_rc(gnt_v1[71].domid, GNT_SELF_ID);
    check_rc(swap1(70, 70), GNTST_okay);
    check_rc(swap1(70, 512), GNTST_bad_gntref);
    check_rc(swap1(9999, 70), GNTST_bad_gntref);
    check_rc(swap1(512, 512), GNTST_bad_gntref);
    check_rc(gnt_map1(&m, GNT_SELF_ID, 71, GNTMAP_device_map, 0),
             GNTST_okay);
    check_rc(swap1(70, 71), GNTST_eagain);
    check_rc(swap1(71, 72), GNTST_eagain);
    check_rc(gnt_unmap1(0, m.handle, m.dev_bus_addr), GNTST_okay);
    check_rc(gnttab_op(GNTTABOP_swap_grant_ref, BAD_XEN, 1), -XEN_EFAULT);

    /* v2 swaps the status with the entry. */
    gnt_unmap_all();
    check_rc(gnt_set_version(2), 0);
    gnt_setup(1);
    gnt_grant(2, 70, GNT_SELF_ID, mfn, 0);
    check_rc(gnt_map1(&m, GNT_SELF_ID, 70, GNTMAP_device_map, 0),
             GNTST_okay);
    check_rc(swap1(70, 75), GNTST_eagain);
    check_rc(gnt_unmap1(0, m.handle, m.dev_bus_addr), GNTST_okay);
    gnt_status[70] = GTF_reading;       /* the guest scribbles: swapped too */
    check_rc(swap1(70, 75), GNTST_okay);
    check_rc(gnt_v2[75].full_page.frame, mfn);
    check_rc(gnt_status[75], GTF_reading);
    check_rc(gnt_status[70], 0);
    gnt_status[75] = 0;
    gnt_unmap_all();
    check_rc(gnt_set_version(1), 0);
    gnt_setup(1);
}

/*
 * x86 Xen has no cache_flush since 4.21 (the cache is coherent with
 * DMA): -ENOSYS, whatever its arguments and its continuation argument
 * above the sub-op.  Before, an error with that argument continued with
 * a count growing each time until it passed INT_MAX: the vCPU never
 * came back (the 32-bit guest's (0xf580e00c, 0x138, 0x16263e) did so).
 */
static void test_cache_flush(void)
{
    gnttab_cache_flush_t c = {
        .a.dev_bus_addr = (uint64_t)virt_to_mfn(data) << PAGE_SHIFT,
        .length = 64, .op = GNTTAB_CACHE_CLEAN,
    };

    check_rc(gnttab_op(GNTTABOP_cache_flush, &c, 1), -XEN_ENOSYS);
    check_rc(gnttab_op(GNTTABOP_cache_flush, &c, 0), -XEN_ENOSYS);
    check_rc(gnttab_op(GNTTABOP_cache_flush | 1u << 12, &c, 1),
             -XEN_ENOSYS);
    check_rc(gnttab_op(GNTTABOP_cache_flush, BAD_XEN, 1), -XEN_ENOSYS);
    check_rc(HYPERCALL(__HYPERVISOR_grant_table_op, 0xf580e00c,
                       (unsigned long)BAD_UNMAPPED, 0x16263e, 0, 0),
             -XEN_ENOSYS);
    check_rc(gnttab_op(GNTTABOP_cache_flush, &c, -1), -XEN_EINVAL);
    /* The argument above the sub-op is cache_flush's only. */
    check_rc(gnttab_op(GNTTABOP_query_size | 1u << 12, &c, 1), -XEN_EINVAL);
}

static int16_t transfer1(unsigned long mfn, domid_t domid, grant_ref_t ref)
{
    struct gnttab_transfer t = {
        .mfn = mfn, .domid = domid, .ref = ref, .status = 99,
    };

    check_rc(gnttab_op(GNTTABOP_transfer, &t, 1), 0);
    return t.status;
}

static void test_transfer(void)
{
    unsigned long mfn = alloc_frame(), lost = alloc_frame();
    unsigned long pfn = mfn_to_pfn(mfn);

    /* To the guest itself, through an entry that accepts it. */
    gnt_v1[80].domid = GNT_SELF_ID;
    gnt_v1[80].frame = pfn;
    gnt_v1[80].flags = GTF_accept_transfer;
    check_rc(transfer1(mfn, GNT_SELF_ID, 80), GNTST_okay);
    check_rc(gnt_v1[80].frame, mfn);
    check_rc(gnt_v1[80].flags, GTF_accept_transfer |
             GTF_transfer_committed | GTF_transfer_completed);
    check_rc(mfn_to_pfn(mfn), pfn);
    frame_fill(mfn, 0x11);              /* still the guest's */

    /* Frames that can't be stolen: mapped, a page table, not the guest's. */
    check_rc(transfer1(virt_to_mfn(data), GNT_SELF_ID, 80), GNTST_bad_page);
    check_rc(transfer1(pt_base_mfn(), GNT_SELF_ID, 80), GNTST_bad_page);
    check_rc(transfer1(hypervisor_frame(), GNT_SELF_ID, 80),
             GNTST_bad_page);
    check_rc(transfer1(maximum_ram_page() + 3, GNT_SELF_ID, 80),
             GNTST_bad_page);
    check_rc(transfer1(start_info->shared_info >> PAGE_SHIFT, GNT_SELF_ID,
                       80), GNTST_bad_page);

    /* Refused by the receiver: the frame is gone all the same. */
    check_rc(transfer1(lost, GNT_SELF_ID, 81), GNTST_general_error);
    check_rc(map_frame_at((unsigned long)data, lost, PTE_RW), -XEN_EBUSY);
    check_rc(transfer1(alloc_frame(), 0, 80), GNTST_general_error);
    check_rc(transfer1(alloc_frame(), DOMID_SELF, 80), GNTST_bad_domain);
    check_rc(transfer1(alloc_frame(), 33, 80), GNTST_bad_domain);
    check_rc(transfer1(alloc_frame(), GNT_SELF_ID, 5000),
             GNTST_general_error);
    check_rc(gnttab_op(GNTTABOP_transfer, BAD_XEN, 1), -XEN_EFAULT);
}

void test_main(void)
{
    gnt_setup(1);
    test_swap();
    test_cache_flush();
    test_transfer();
    test_success();
}
