/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The failure exits of the grant and MMU operations leave references and
 * type counts as they were, or as Xen leaves them for a half-done batch:
 * mmu_update (each request type, foreign domains, a table that fails
 * validation part-way), mmuext_op (pins of bad trees, a half-done batch,
 * NEW_BASEPTR), update_va_mapping (with a vCPU bitmap too), grant map,
 * unmap, copy and transfer, a multicall of them, and
 * decrease_reservation stopped at a refused frame.  The shim's mm-audit
 * recounts the frame table after each call (any difference panics it);
 * the test then checks that each frame involved is free again: it can be
 * pinned as a page table (no writable reference left) and mapped
 * writable (no table type left), and no grant stays pinned.
 */
#include "grant.h"
#include <xen/memory.h>

const char test_title[] =
    "Failure exits of the grant and MMU operations leave no reference";

static uint8_t win[2][PAGE_SIZE] __gnt_page;
#define W(i)        ((unsigned long)win[i])

static unsigned long hole;              /* an L2 slot with no L1 */
static unsigned long vcpu0 = 1;

/* @mfn, zeroed, holds nothing but its allocation's reference. */
static void check_clean(const char *what, unsigned long mfn)
{
    long rc;

    if ( (rc = pin_table(1, mfn)) )
        test_fail("%s: mfn %#lx can't be an L1 (%ld): a writable "
                  "reference left", what, mfn, rc);
    else if ( (rc = unpin_table(mfn)) )
        test_fail("%s: mfn %#lx won't unpin (%ld)", what, mfn, rc);
    if ( (rc = map_frame_at(W(1), mfn, PTE_RW)) )
        test_fail("%s: mfn %#lx can't be mapped writable (%ld): a table "
                  "type left", what, mfn, rc);
    remap_initial(W(1));
}

/* A frame the guest may not map: the first one past RAM. */
static uint64_t junk_entry(void)
{
    return pte_make(maximum_ram_page() + 8, PTE_RO);
}

/* An L1 whose entry 0 maps @g writable and whose entry 9 is refused. */
static unsigned long bad_l1(unsigned long g)
{
    unsigned long t = alloc_frame();

    frame_set_pte(t, 0, pte_make(g, PTE_RW));
    frame_set_pte(t, 9, junk_entry());
    return t;
}

static void test_mmu_update(void)
{
    unsigned long f = alloc_frame(), g = alloc_frame(), t = bad_l1(g);
    mmu_update_t req[2] = {
        { .ptr = pt_entry_maddr(W(0), 1), .val = pte_make(f, PTE_RW) },
        { .ptr = pt_entry_maddr(W(1), 1),
          .val = pte_make(f, PTE_RW | _PAGE_PAT) },
    };
    unsigned int done = 99;

    /* Refused flags: nothing taken. */
    check_rc(mmu_update1(req[1].ptr, req[1].val), -XEN_EINVAL);
    check_clean("mmu_update with PAT", f);
    /* Half done: the first stays, as in Xen, and goes when undone. */
    check_rc(hypercall_mmu_update(req, 2, &done, DOMID_SELF), -XEN_EINVAL);
    check_rc(done, 1);
    check_rc(remap_initial(W(0)), 0);
    check_clean("half-done mmu_update", f);
    /* Foreign domains: refused before any request. */
    check_rc(hypercall_mmu_update(req, 1, NULL, 7), -XEN_ESRCH);
    check_rc(hypercall_mmu_update(req, 1, NULL, 0), -XEN_EPERM);
    check_rc(hypercall_mmu_update(req, 1, NULL, DOMID_IO), -XEN_EPERM);
    check_rc(hypercall_mmu_update(req, 1, NULL, 8 << 16 | DOMID_SELF),
             -XEN_ESRCH);
    check_clean("mmu_update for another domain", f);
    /* A table that fails validation part-way: entry 0's references go. */
    check_rc(mmu_update1(pt_entry_maddr(hole, 2), pte_make(t, PTE_TABLE)),
             -XEN_EPERM);
    check_clean("a table refused at entry 9: its entry 0", g);
    check_rc(map_frame_at(W(1), t, PTE_RW), 0);     /* no table type */
    remap_initial(W(1));
    /* Commands 4-7 and MACHPHYS of a frame not the guest's. */
    check_rc(mmu_update1(pt_entry_maddr(W(0), 1) | 4, req[0].val),
             -XEN_ENOSYS);
    check_rc(mmu_update1(((uint64_t)hypervisor_frame() << PAGE_SHIFT) |
                         MMU_MACHPHYS_UPDATE, 0), -XEN_EINVAL);
    check_clean("mmu_update commands", f);
}

static void test_mmuext(void)
{
    unsigned long g = alloc_frame(), t = bad_l1(g), a = alloc_frame();
    unsigned long l2 = alloc_frame(), l4 = root_frame(), f = alloc_frame();
    mmuext_op_t ops[2] = {
        { .cmd = MMUEXT_PIN_L1_TABLE, .arg1.mfn = a },
        { .cmd = MMUEXT_PIN_L1_TABLE, .arg1.mfn = f },
    };
    unsigned int done = 99;

    frame_set_pte(l2, 0, pte_make(t, PTE_TABLE));
    check_rc(pin_table(2, l2), -XEN_EPERM);
    check_clean("a pin of a bad tree: the grandchild", g);
    check_rc(map_frame_at(W(1), l2, PTE_RW), 0);
    remap_initial(W(1));
    /* The top level naming that L2 through a good L3. */
    if ( PT_LEVELS == 4 )
    {
        unsigned long l3 = alloc_frame();

        frame_set_pte(l3, 0, pte_make(l2, PTE_TABLE));
        frame_set_pte(l4, 1, pte_make(l3, PTE_TABLE));
        check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), -XEN_EPERM);
        check_rc(map_frame_at(W(1), l3, PTE_RW), 0);
        remap_initial(W(1));
    }
    else
    {
        frame_set_pte(l4, 1, pte_make(l2, _PAGE_PRESENT));
        check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), -XEN_EPERM);
    }
    check_clean("NEW_BASEPTR of a bad tree: the grandchild", g);

    /* Half done: the first pin stays; f, mapped writable, is refused. */
    check_rc(map_frame_at(W(0), f, PTE_RW), 0);
    check_rc(hypercall_mmuext_op(ops, 2, &done, DOMID_SELF), -XEN_EINVAL);
    check_rc(done, 1);
    check_rc(unpin_table(a), 0);
    check_rc(remap_initial(W(0)), 0);
    check_clean("half-done mmuext_op: the pinned one", a);
    check_clean("half-done mmuext_op: the refused one", f);
    check_rc(hypercall_mmuext_op(ops, 1, NULL, 0), -XEN_EPERM);
    check_clean("mmuext_op for dom0", a);
}

static void test_uvm(void)
{
    unsigned long f = alloc_frame();
    uint64_t pat = pte_make(f, PTE_RW | _PAGE_PAT);

    check_rc(hypercall_update_va_mapping(W(0), pat, UVMF_INVLPG),
             -XEN_EINVAL);
    check_rc(hypercall_update_va_mapping(W(0), pat, UVMF_TLB_FLUSH |
                                         (unsigned long)&vcpu0),
             -XEN_EINVAL);
    check_rc(hypercall_update_va_mapping(hole, pte_make(f, PTE_RW),
                                         UVMF_INVLPG), -XEN_EINVAL);
    check_clean("update_va_mapping", f);
}

static void test_grants(void)
{
    unsigned long f = alloc_frame(), t = new_table(1, 0, 0);
    struct gnttab_map_grant_ref op;
    struct gnttab_copy cp = {
        .flags = GNTCOPY_source_gref | GNTCOPY_dest_gref,
        .source = { .u.ref = 30, .domid = DOMID_SELF },
        .dest = { .u.ref = 31, .domid = DOMID_SELF },
        .len = 8,
    };
    struct gnttab_transfer tr = { .mfn = f, .domid = GNT_SELF_ID,
                                  .ref = 32 };

    gnt_setup(1);
    gnt_grant(1, 30, GNT_SELF_ID, f, 0);
    gnt_grant(1, 31, GNT_SELF_ID, t, 0);
    /* Map: no L1 at the address, a table writable, a bad PTE address. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 30, GNTMAP_host_map, hole),
             GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 30, GNTMAP_host_map |
                      GNTMAP_device_map, hole), GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 31, GNTMAP_host_map, W(0)),
             GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 30, GNTMAP_host_map |
                      GNTMAP_contains_pte, pt_entry_maddr(W(0), 1) + 3),
             GNTST_general_error);
    check_rc(gnt_status_bits(1, 30) | gnt_status_bits(1, 31), 0);
    check_clean("failed grant maps", f);

    /* Copy into a page table: the source's pin goes too. */
    check_rc(gnttab_op(GNTTABOP_copy, &cp, 1), 0);
    check_rc(cp.status, GNTST_general_error);
    cp.dest.u.ref = 30;
    cp.source.u.ref = 9999;
    check_rc(gnttab_op(GNTTABOP_copy, &cp, 1), 0);
    check_rc(cp.status, GNTST_bad_gntref);
    check_rc(gnt_status_bits(1, 30) | gnt_status_bits(1, 31), 0);
    check_clean("failed grant copies", f);

    /* Unmap refused: the mapping and its references stay. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 30, GNTMAP_host_map, W(0)),
             GNTST_okay);
    check_rc(gnt_unmap1(W(1), op.handle, 0), GNTST_general_error);
    check_rc(gnttab_op(GNTTABOP_transfer, &tr, 1), 0);
    check_rc(tr.status, GNTST_bad_page);        /* mapped: no steal */
    check_rc(gnt_unmap1(W(0), op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(1, 30), 0);
    check_rc(remap_initial(W(0)), 0);
    check_clean("a grant map kept through failed unmaps", f);

    check_rc(unpin_table(t), 0);
    check_clean("a page table granted", t);
    gnt_v1[30].flags = gnt_v1[31].flags = 0;
    gnt_unmap_all();
}

/* The same failures in one multicall: each entry's own result. */
static void test_multicall(void)
{
    unsigned long f = alloc_frame();
    static struct gnttab_map_grant_ref op = {
        .dom = GNT_SELF_ID, .ref = 33, .flags = GNTMAP_host_map,
    };
    static mmu_update_t req;
    multicall_entry_t mc[3] = {
        { .op = __HYPERVISOR_mmu_update,
          .args = { (unsigned long)&req, 1, 0, DOMID_SELF } },
        { .op = __HYPERVISOR_grant_table_op,
          .args = { GNTTABOP_map_grant_ref, (unsigned long)&op, 1 } },
        { .op = __HYPERVISOR_update_va_mapping,
          .args = { W(0), HC_U64(pte_make(f, PTE_RW | _PAGE_PAT)),
                    UVMF_INVLPG } },
    };

    gnt_setup(1);
    gnt_grant(1, 33, GNT_SELF_ID, f, 0);
    op.host_addr = hole;
    req = (mmu_update_t){ .ptr = pt_entry_maddr(W(1), 1),
                          .val = pte_make(f, PTE_RW | _PAGE_PAT) };
    check_rc(HYPERCALL(__HYPERVISOR_multicall, (unsigned long)mc, 3, 0, 0,
                       0), 0);
    check_rc(mc[0].result, -XEN_EINVAL);
    check_rc(mc[1].result, 0);
    check_rc(op.status, GNTST_general_error);
    check_rc(mc[2].result, -XEN_EINVAL);
    check_rc(gnt_status_bits(1, 33), 0);
    check_clean("a multicall of failures", f);
    gnt_v1[33].flags = 0;
    gnt_unmap_all();
}

/* Given back up to the refused frame; the frames after it untouched. */
static void test_decrease(void)
{
    xen_pfn_t mfns[3] = { alloc_frame(), hypervisor_frame(), alloc_frame() };
    struct xen_memory_reservation r = { .nr_extents = 3,
                                        .domid = DOMID_SELF };

    set_xen_guest_handle(r.extent_start, mfns);
    check_rc(HYPERCALL(__HYPERVISOR_memory_op, XENMEM_decrease_reservation,
                       &r, 0, 0, 0), 1);
    check_clean("the frame after a refused one", mfns[2]);
    check_rc(map_frame_at(W(1), mfns[0], PTE_RO), -XEN_EBUSY);
    remap_initial(W(1));
}

void test_main(void)
{
    hole = (initial_mapping_end() + (1UL << 21) - 1) & ~((1UL << 21) - 1);
    if ( !(*pt_entry(hole - PAGE_SIZE, 2) & _PAGE_PRESENT) ||
         (*pt_entry(hole, 2) & _PAGE_PRESENT) )
        return test_error("no empty L2 slot after the initial mapping");

    test_mmu_update();
    test_mmuext();
    test_uvm();
    test_grants();
    test_multicall();
    test_decrease();
    test_success();
}
