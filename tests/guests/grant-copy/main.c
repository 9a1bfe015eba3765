/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GNTTABOP_copy within the guest, as Xen checks each op: frames (only
 * with DOMID_SELF) and grant refs as source and destination, v2 sub-page
 * bounds, read-only grants as destinations, transitive grants (leading
 * only back to the guest or to domain 0, so refused), page-crossing
 * copies, domains, a write into a grant pinned read-only whose entry
 * names another frame now (Xen's XSA-500), and a batch long enough to be
 * continued.
 */
#include "grant.h"

const char test_title[] = "grant tables: copy";

static uint8_t src[PAGE_SIZE] __gnt_page;
static uint8_t dst[PAGE_SIZE] __gnt_page;

#define BATCH 700
static struct gnttab_copy ops[BATCH];

static unsigned long src_mfn, dst_mfn;

static int16_t copy1(struct gnttab_copy *op)
{
    long rc;

    op->status = 99;
    rc = gnttab_op(GNTTABOP_copy, op, 1);
    if ( rc )
        test_fail("copy returned %ld", rc);
    return op->status;
}

static struct gnttab_copy frames_op(uint16_t soff, uint16_t doff,
                                    uint16_t len)
{
    return (struct gnttab_copy){
        .source = { .u.gmfn = src_mfn, .domid = DOMID_SELF, .offset = soff },
        .dest = { .u.gmfn = dst_mfn, .domid = DOMID_SELF, .offset = doff },
        .len = len,
    };
}

static uint8_t get8(const uint8_t *p)
{
    return *(const volatile uint8_t *)p;
}

static void test_frames(void)
{
    struct gnttab_copy op = frames_op(100, 200, 50);
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE; i++ )
        ((volatile uint8_t *)src)[i] = i * 7;
    check_rc(copy1(&op), GNTST_okay);
    check_rc(get8(&dst[200]), (uint8_t)(100 * 7));
    check_rc(get8(&dst[249]), (uint8_t)(149 * 7));
    check_rc(get8(&dst[250]), 0);

    op = frames_op(4000, 0, 97);
    check_rc(copy1(&op), GNTST_bad_copy_arg);
    op = frames_op(0, 4095, 2);
    check_rc(copy1(&op), GNTST_bad_copy_arg);
    op = frames_op(0, 0, 0);
    check_rc(copy1(&op), GNTST_okay);
    /* Frames only as DOMID_SELF, even with the guest's own id. */
    op = frames_op(0, 0, 8);
    op.source.domid = GNT_SELF_ID;
    check_rc(copy1(&op), GNTST_permission_denied);
    op = frames_op(0, 0, 8);
    op.dest.domid = 0;
    check_rc(copy1(&op), GNTST_permission_denied);
    /* Frames that aren't the guest's. */
    op = frames_op(0, 0, 8);
    op.source.u.gmfn = hypervisor_frame();
    check_rc(copy1(&op), GNTST_bad_page);
    op = frames_op(0, 0, 8);
    op.dest.u.gmfn = maximum_ram_page() + 1;
    check_rc(copy1(&op), GNTST_bad_page);
    /* A page table is no destination. */
    op = frames_op(0, 0, 8);
    op.dest.u.gmfn = pt_base_mfn();
    check_rc(copy1(&op), GNTST_general_error);
    op = frames_op(0, 0, 8);
    op.source.u.gmfn = pt_base_mfn();
    check_rc(copy1(&op), GNTST_okay);
    check_rc(gnttab_op(GNTTABOP_copy, BAD_XEN, 1), -XEN_EFAULT);
}

static void test_grefs(unsigned int v)
{
    struct gnttab_copy op = frames_op(0, 0, 16);

    gnt_grant(v, 50, GNT_SELF_ID, src_mfn, GTF_readonly);
    gnt_grant(v, 51, GNT_SELF_ID, dst_mfn, 0);
    op.flags = GNTCOPY_source_gref | GNTCOPY_dest_gref;
    op.source.u.ref = 50;
    op.source.domid = GNT_SELF_ID;
    op.dest.u.ref = 51;
    op.dest.domid = DOMID_SELF;
    op.source.offset = 300;
    op.dest.offset = 1000;
    check_rc(copy1(&op), GNTST_okay);
    check_rc(get8(&dst[1000]), (uint8_t)(300 * 7));
    check_rc(gnt_status_bits(v, 50), 0);
    check_rc(gnt_status_bits(v, 51), 0);

    /* A read-only grant can't be written to. */
    op.dest.u.ref = 50;
    check_rc(copy1(&op), GNTST_general_error);
    check_rc(gnt_status_bits(v, 50), 0);
    op.dest.u.ref = 9999;
    check_rc(copy1(&op), GNTST_bad_gntref);
    op.dest.u.ref = 52;                 /* never granted */
    check_rc(copy1(&op), GNTST_general_error);
    op.dest.u.ref = 51;
    op.dest.domid = 0;                  /* domain 0 grants nothing */
    check_rc(copy1(&op), GNTST_general_error);
    op.dest.u.ref = 600;
    check_rc(copy1(&op), GNTST_bad_gntref);
    op.dest.domid = 44;
    check_rc(copy1(&op), GNTST_bad_domain);
    op.dest.domid = DOMID_SELF;
    op.dest.u.ref = 51;
    gnt_grant(v, 53, GNT_SELF_ID, hypervisor_frame(), 0);
    op.source.u.ref = 53;
    check_rc(copy1(&op), GNTST_bad_page);
    check_rc(gnt_status_bits(v, 53), 0);
}

/*
 * Xen's XSA-500: a write copy into a grant already pinned read-only uses
 * the frame pinned, so the shared entry naming another frame meanwhile
 * is refused (GNTST_general_error), with no reference moved.  Frame A is
 * a pinned page table, mapped read-only through ref 40 (any frame a
 * guest can map read-only may be one); before the fix the copy took its
 * writable type on frame B and wrote A, and the frame table's counts of
 * both went wrong (mm-audit's panic, then a page fault in the shim when
 * the written table was unpinned).
 */
static void test_copy_to_pinned(unsigned int v)
{
    unsigned long a = new_table(1, 7, pte_make(src_mfn, PTE_RO));
    struct gnttab_map_grant_ref map;
    struct gnttab_copy op = frames_op(0, 8, 16);
    uint64_t before[8], after[8];

    gnt_grant(v, 40, GNT_SELF_ID, a, GTF_readonly);
    check_rc(gnt_map1(&map, GNT_SELF_ID, 40,
                      GNTMAP_device_map | GNTMAP_readonly, 0), GNTST_okay);
    frame_read(a, 0, before, sizeof(before));
    gnt_grant(v, 40, GNT_SELF_ID, dst_mfn, 0);
    op.flags = GNTCOPY_dest_gref;
    op.dest.u.ref = 40;
    op.dest.domid = DOMID_SELF;
    check_rc(copy1(&op), GNTST_general_error);
    frame_read(a, 0, after, sizeof(after));
    if ( memcmp(before, after, sizeof(before)) )
        test_fail("copy wrote the pinned table through grant 40");
    /* Still pinned read-only: not writing. */
    check_rc(gnt_status_bits(v, 40), GTF_reading);
    /* A read from it still sees frame A, as pinned: its entry 7. */
    op = frames_op(7 * 8, 0, 8);
    op.flags = GNTCOPY_source_gref;
    op.source.u.ref = 40;
    check_rc(copy1(&op), GNTST_okay);
    check_rc(*(volatile uint64_t *)dst, before[7]);
    /* Back at A: the write is refused for the type, as any table's. */
    gnt_grant(v, 40, GNT_SELF_ID, a, 0);
    op = frames_op(0, 8, 16);
    op.flags = GNTCOPY_dest_gref;
    op.dest.u.ref = 40;
    check_rc(copy1(&op), GNTST_general_error);

    check_rc(gnt_unmap1(0, map.handle, map.dev_bus_addr), GNTST_okay);
    check_rc(gnt_status_bits(v, 40), 0);
    if ( v == 1 )
        gnt_v1[40].flags = 0;
    else
        gnt_v2[40].hdr.flags = 0;
    check_rc(unpin_table(a), 0);
}

static void test_v2_only(void)
{
    static uint8_t win[PAGE_SIZE] __gnt_page;
    struct gnttab_map_grant_ref mop;
    int16_t st;
    struct gnttab_copy op = frames_op(0, 0, 32);

    /* Sub-page: the copy must stay inside [page_off, page_off + length). */
    gnt_v2[60].sub_page.frame = src_mfn;
    gnt_v2[60].sub_page.page_off = 256;
    gnt_v2[60].sub_page.length = 64;
    gnt_v2[60].hdr.domid = GNT_SELF_ID;
    gnt_v2[60].hdr.flags = GTF_permit_access | GTF_sub_page;
    op.flags = GNTCOPY_source_gref;
    op.source.u.ref = 60;
    op.source.domid = DOMID_SELF;
    op.source.offset = 256;
    check_rc(copy1(&op), GNTST_okay);
    op.source.offset = 300;
    check_rc(copy1(&op), GNTST_general_error);
    op.source.offset = 200;
    check_rc(copy1(&op), GNTST_general_error);

    /* Transitive: to the guest itself, to domain 0, to no one. */
    gnt_v2[61].transitive.trans_domid = GNT_SELF_ID;
    gnt_v2[61].transitive.gref = 50;
    gnt_v2[61].hdr.domid = GNT_SELF_ID;
    gnt_v2[61].hdr.flags = GTF_transitive;
    op.source.u.ref = 61;
    op.source.offset = 0;
    check_rc(copy1(&op), GNTST_general_error);
    gnt_v2[61].transitive.trans_domid = 0;
    check_rc(copy1(&op), GNTST_general_error);
    gnt_v2[61].transitive.gref = 1000;
    check_rc(copy1(&op), GNTST_bad_gntref);
    gnt_v2[61].transitive.trans_domid = 77;
    check_rc(copy1(&op), GNTST_general_error);
    check_rc(gnt_status_bits(2, 61), 0);

    /*
     * Never mapped, even with the bytes where a full page's frame would
     * be naming one of ours (the next grant's reference there): Xen's
     * fix of transitive grants mapped as if they were full pages.
     */
    gnt_v2[62].full_page.frame = src_mfn;
    gnt_v2[62].hdr.domid = GNT_SELF_ID;
    __atomic_store_n(&gnt_v2[62].hdr.flags, GTF_transitive, __ATOMIC_SEQ_CST);
    st = gnt_map1(&mop, GNT_SELF_ID, 62, GNTMAP_host_map | GNTMAP_readonly,
                  (unsigned long)win);
    check_rc(st, GNTST_general_error);
    if ( st == GNTST_okay )
    {
        gnt_unmap1((unsigned long)win, mop.handle, 0);
        remap_initial((unsigned long)win);
    }
    check_rc(gnt_status_bits(2, 62), 0);
    gnt_v2[62].hdr.flags = 0;
}

static void test_batch(void)
{
    unsigned int i;
    long rc;

    for ( i = 0; i < BATCH; i++ )
    {
        ops[i] = frames_op(i % 4000, (i * 3) % 4000, 8);
        ops[i].status = 99;
    }
    ops[BATCH - 1].len = 4096;          /* the last one fails */
    rc = gnttab_op(GNTTABOP_copy, ops, BATCH);
    check_rc(rc, 0);
    for ( i = 0; i < BATCH - 1; i++ )
        if ( ops[i].status != GNTST_okay )
            return test_fail("op %u: status %d", i, ops[i].status);
    check_rc(ops[BATCH - 1].status, GNTST_bad_copy_arg);
}

void test_main(void)
{
    src_mfn = virt_to_mfn(src);
    dst_mfn = virt_to_mfn(dst);
    test_frames();
    gnt_setup(1);
    test_grefs(1);
    test_copy_to_pinned(1);
    gnt_unmap_all();
    check_rc(gnt_set_version(2), 0);
    gnt_setup(1);
    test_grefs(2);
    test_copy_to_pinned(2);
    test_v2_only();
    test_batch();
    test_success();
}
