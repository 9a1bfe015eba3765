/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mapping the guest's own grants (v1) as Xen maps them for a PV domU:
 * host mappings by linear address and by PTE machine address
 * (GNTMAP_contains_pte, with the map's avail bits in the PTE), read-only
 * ones, device mappings, GTF_reading/GTF_writing kept in the entry,
 * handles, unmap_and_replace, a version switch refused while mapped, and
 * each per-entry error: bad flags, refs, domains (domain 0 grants
 * nothing), entries, frames and addresses, and the guest changing an
 * entry while it is mapped.
 */
#include "grant.h"

const char test_title[] = "grant tables: map and unmap own grants";

static uint8_t data[PAGE_SIZE] __gnt_page;
static uint8_t win[PAGE_SIZE] __gnt_page;
static uint8_t spare[PAGE_SIZE] __gnt_page;
static uint8_t edge[2][PAGE_SIZE] __gnt_page;

#define WIN ((unsigned long)win)

static unsigned long data_mfn;

/* The window and the granted page alias: no access may be cached. */
static void put8(uint8_t *p, uint8_t v)
{
    *(volatile uint8_t *)p = v;
}

static uint8_t get8(const uint8_t *p)
{
    return *(const volatile uint8_t *)p;
}

static void grant_data(grant_ref_t ref, uint16_t extra)
{
    gnt_grant(1, ref, GNT_SELF_ID, data_mfn, extra);
}

static void test_map_rw(void)
{
    struct gnttab_map_grant_ref op;

    grant_data(10, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 10, GNTMAP_host_map, WIN),
             GNTST_okay);
    check_rc(op.dev_bus_addr, (uint64_t)data_mfn << PAGE_SHIFT);
    check_rc(gnt_status_bits(1, 10), GTF_reading | GTF_writing);
    check_rc(virt_to_mfn(win), data_mfn);
    invlpg_local(WIN);
    put8(&win[8], 0x5a);
    check_rc(get8(&data[8]), 0x5a);
    /* The mapping is the grant's: unmap by handle. */
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(1, 10), 0);
    if ( !probe_read(win) )
        test_fail("the unmapped window still reads");
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_bad_handle);
    check_rc(remap_initial(WIN), 0);
}

static void test_map_ro(void)
{
    struct gnttab_map_grant_ref op;

    grant_data(11, GTF_readonly);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 11, GNTMAP_host_map, WIN),
             GNTST_general_error);
    check_rc(gnt_status_bits(1, 11), 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 11,
                      GNTMAP_host_map | GNTMAP_readonly, WIN), GNTST_okay);
    check_rc(gnt_status_bits(1, 11), GTF_reading);
    invlpg_local(WIN);
    put8(&data[16], 0x77);
    check_rc(get8(&win[16]), 0x77);
    if ( exinfo_vector(probe_write(win)) != X86_EXC_PF )
        test_fail("a read-only grant mapping took a write");
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(1, 11), 0);
    check_rc(remap_initial(WIN), 0);
}

static void test_contains_pte(void)
{
    struct gnttab_map_grant_ref op;
    uint64_t ptr = pt_entry_maddr(WIN, 1);
    const uint64_t *pte = pt_entry(WIN, 1);

    if ( !ptr || !pte )
        return test_error("no L1 entry for the window");
    grant_data(12, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 12, GNTMAP_host_map |
                      GNTMAP_contains_pte | (5u << _GNTMAP_guest_avail0),
                      ptr), GNTST_okay);
    check_rc(pte_mfn(*pte), data_mfn);
    check_rc((*pte >> 9) & 7, 5);
    if ( !(*pte & _PAGE_RW) || !(*pte & _PAGE_DIRTY) )
        test_fail("grant PTE %#llx lacks RW or D", (unsigned long long)*pte);
    if ( cpu_has_nx() && !(*pte & _PAGE_NX) )
        test_fail("grant PTE %#llx is executable", (unsigned long long)*pte);
    invlpg_local(WIN);
    put8(&win[24], 0x42);
    check_rc(get8(&data[24]), 0x42);
    /* Unmap by the PTE's address; misaligned or linear ones don't match. */
    check_rc(gnt_unmap1(ptr + 1, op.handle, 0), GNTST_general_error);
    check_rc(gnt_unmap1(ptr, op.handle, 0), GNTST_okay);
    check_rc(*pte, 0);
    check_rc(gnt_status_bits(1, 12), 0);

    /* An application mapping is a user one: no guest-kernel bit. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 12, GNTMAP_host_map |
                      GNTMAP_contains_pte | GNTMAP_application_map |
                      GNTMAP_readonly, ptr), GNTST_okay);
    if ( !(*pte & _PAGE_USER) || (*pte & (UINT64_C(1) << 52)) ||
         (*pte & _PAGE_RW) )
        test_fail("application PTE %#llx", (unsigned long long)*pte);
    check_rc(gnt_status_bits(1, 12), GTF_reading);
    check_rc(gnt_unmap1(ptr, op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(1, 12), 0);

    /* Misaligned, and not a page table's address. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 12, GNTMAP_host_map |
                      GNTMAP_contains_pte, ptr + 4), GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 12, GNTMAP_host_map |
                      GNTMAP_contains_pte, (uint64_t)data_mfn << PAGE_SHIFT),
             GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 12, GNTMAP_host_map |
                      GNTMAP_contains_pte,
                      (uint64_t)hypervisor_frame() << PAGE_SHIFT),
             GNTST_general_error);
    check_rc(gnt_status_bits(1, 12), 0);
    check_rc(remap_initial(WIN), 0);
}

static void test_bad_entries(void)
{
    struct gnttab_map_grant_ref op;

    grant_data(13, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 13, 0, WIN), GNTST_bad_gntref);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 13, GNTMAP_readonly, WIN),
             GNTST_bad_gntref);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 512, GNTMAP_host_map, WIN),
             GNTST_bad_gntref);
    check_rc(gnt_map1(&op, GNT_SELF_ID, ~0u, GNTMAP_host_map, WIN),
             GNTST_bad_gntref);
    check_rc(gnt_map1(&op, DOMID_SELF, 13, GNTMAP_host_map, WIN),
             GNTST_bad_domain);
    check_rc(gnt_map1(&op, 5, 13, GNTMAP_host_map, WIN), GNTST_bad_domain);
    /* Domain 0 exists and grants nothing. */
    check_rc(gnt_map1(&op, 0, 13, GNTMAP_host_map, WIN),
             GNTST_general_error);
    check_rc(gnt_map1(&op, 0, 600, GNTMAP_host_map, WIN), GNTST_bad_gntref);

    /* Granted to someone else, not granted, sub-page, transfer. */
    gnt_grant(1, 14, 0, data_mfn, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 14, GNTMAP_host_map, WIN),
             GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 15, GNTMAP_host_map, WIN),
             GNTST_general_error);
    grant_data(16, GTF_sub_page);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 16, GNTMAP_host_map, WIN),
             GNTST_general_error);
    gnt_v1[17].domid = GNT_SELF_ID;
    gnt_v1[17].flags = GTF_accept_transfer;
    check_rc(gnt_map1(&op, GNT_SELF_ID, 17, GNTMAP_host_map, WIN),
             GNTST_general_error);

    /* Frames: not the guest's, or a page table mapped writable. */
    gnt_grant(1, 18, GNT_SELF_ID, hypervisor_frame(), 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 18, GNTMAP_host_map, WIN),
             GNTST_bad_page);
    check_rc(gnt_status_bits(1, 18), 0);
    gnt_grant(1, 19, GNT_SELF_ID, maximum_ram_page() + 5, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 19, GNTMAP_host_map, WIN),
             GNTST_bad_page);
    gnt_grant(1, 20, GNT_SELF_ID, pt_base_mfn(), 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 20, GNTMAP_host_map, WIN),
             GNTST_general_error);
    check_rc(gnt_status_bits(1, 20), 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 20,
                      GNTMAP_host_map | GNTMAP_readonly, WIN), GNTST_okay);
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_okay);

    /* Addresses with no L1 entry, or the hypervisor's. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 13, GNTMAP_host_map,
                      (unsigned long)BAD_UNMAPPED), GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 13, GNTMAP_host_map,
                      (unsigned long)BAD_XEN), GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 13, GNTMAP_host_map,
                      (unsigned long)BAD_NONCANONICAL), GNTST_general_error);
    check_rc(gnt_status_bits(1, 13), 0);
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, BAD_XEN, 1), -XEN_EFAULT);
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, BAD_UNMAPPED, 1),
             -XEN_EFAULT);
    check_rc(remap_initial(WIN), 0);
}

/*
 * A batch runs into unmapped memory: Xen checks only where the array
 * starts, so the ops before the hole are done, then -EFAULT.
 */
static void test_batch_fault(void)
{
    struct gnttab_map_grant_ref *op =
        (void *)(edge[1] - sizeof(struct gnttab_map_grant_ref));

    grant_data(24, 0);
    memset(op, 0, sizeof(*op));
    op->dom = GNT_SELF_ID;
    op->ref = 24;
    op->flags = GNTMAP_device_map | GNTMAP_readonly;
    op->status = 99;
    check_rc(unmap_va((unsigned long)edge[1]), 0);
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, op, 1000), -XEN_EFAULT);
    check_rc(remap_initial((unsigned long)edge[1]), 0);
    check_rc(op->status, GNTST_okay);
    check_rc(gnt_unmap1(0, op->handle, op->dev_bus_addr), GNTST_okay);
    check_rc(gnt_status_bits(1, 24), 0);
}

static void test_handles_and_changes(void)
{
    struct gnttab_map_grant_ref a, b;
    long rc;

    grant_data(21, 0);
    check_rc(gnt_map1(&a, GNT_SELF_ID, 21, GNTMAP_host_map, WIN),
             GNTST_okay);
    /* A second pin of the same grant: another handle, device only. */
    check_rc(gnt_map1(&b, GNT_SELF_ID, 21,
                      GNTMAP_device_map | GNTMAP_readonly, 0), GNTST_okay);
    if ( a.handle == b.handle )
        test_fail("two maps share handle %u", a.handle);
    check_rc(b.dev_bus_addr, (uint64_t)data_mfn << PAGE_SHIFT);

    /* No version switch while a grant past the reserved 8 is pinned. */
    check_rc(gnt_set_version(2), -XEN_EBUSY);
    struct gnttab_get_version gv = { .dom = DOMID_SELF };
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), 0);
    check_rc(gv.version, 1);

    /* The guest revokes the entry while it is mapped: unmap still works. */
    gnt_v1[21].flags = 0;
    check_rc(gnt_unmap1(WIN, 0xffff, 0), GNTST_bad_handle);
    check_rc(gnt_unmap1(WIN, 40000, 0), GNTST_bad_handle);
    check_rc(gnt_unmap1((unsigned long)spare, a.handle, 0),
             GNTST_general_error);
    check_rc(gnt_unmap1(0, b.handle, 0x1000), GNTST_general_error);
    check_rc(gnt_unmap1(0, b.handle, 0), GNTST_okay);   /* nothing done */
    check_rc(gnt_unmap1(0, b.handle, b.dev_bus_addr), GNTST_okay);
    check_rc(gnt_unmap1(0, b.handle, b.dev_bus_addr), GNTST_bad_handle);
    check_rc(gnt_unmap1(WIN, a.handle, 0), GNTST_okay);
    check_rc(remap_initial(WIN), 0);

    /* A batch with a bad entry between good ones. */
    struct gnttab_map_grant_ref ops[3] = {
        { .dom = GNT_SELF_ID, .ref = 22, .flags = GNTMAP_device_map },
        { .dom = GNT_SELF_ID, .ref = 9999, .flags = GNTMAP_device_map },
        { .dom = GNT_SELF_ID, .ref = 22, .flags = GNTMAP_device_map },
    };
    grant_data(22, 0);
    rc = gnttab_op(GNTTABOP_map_grant_ref, ops, 3);
    check_rc(rc, 0);
    check_rc(ops[0].status, GNTST_okay);
    check_rc(ops[1].status, GNTST_bad_gntref);
    check_rc(ops[2].status, GNTST_okay);
    check_rc(gnt_unmap1(0, ops[0].handle, ops[0].dev_bus_addr), GNTST_okay);
    check_rc(gnt_status_bits(1, 22), GTF_reading | GTF_writing);
    check_rc(gnt_unmap1(0, ops[2].handle, ops[2].dev_bus_addr), GNTST_okay);
    check_rc(gnt_status_bits(1, 22), 0);
    check_rc(gnt_set_version(2), 0);
    check_rc(gnt_set_version(1), 0);
}

static void test_unmap_and_replace(void)
{
    struct gnttab_map_grant_ref op;
    struct gnttab_unmap_and_replace ur;
    unsigned long spare_mfn = virt_to_mfn(spare);

    gnt_setup(1);
    grant_data(23, 0);
    put8(&spare[0], 0x99);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 23, GNTMAP_host_map, WIN),
             GNTST_okay);
    ur = (struct gnttab_unmap_and_replace){
        .host_addr = WIN, .new_addr = (unsigned long)spare,
        .handle = op.handle,
    };
    check_rc(gnttab_op(GNTTABOP_unmap_and_replace, &ur, 1), 0);
    check_rc(ur.status, GNTST_okay);
    check_rc(virt_to_mfn(win), spare_mfn);
    invlpg_local(WIN);
    invlpg_local((unsigned long)spare);
    check_rc(get8(&win[0]), 0x99);
    if ( !probe_read(spare) )
        test_fail("new_addr still maps after unmap_and_replace");
    check_rc(gnt_status_bits(1, 23), 0);
    check_rc(remap_initial((unsigned long)spare), 0);
    check_rc(remap_initial(WIN), 0);

    /* contains_pte can't replace; a bad handle fails the op only. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 23, GNTMAP_host_map |
                      GNTMAP_contains_pte, pt_entry_maddr(WIN, 1)),
             GNTST_okay);
    ur.host_addr = pt_entry_maddr(WIN, 1);
    ur.handle = op.handle;
    check_rc(gnttab_op(GNTTABOP_unmap_and_replace, &ur, 1), 0);
    check_rc(ur.status, GNTST_general_error);
    check_rc(gnt_unmap1(pt_entry_maddr(WIN, 1), op.handle, 0), GNTST_okay);
    ur.handle = 5000;
    check_rc(gnttab_op(GNTTABOP_unmap_and_replace, &ur, 1), 0);
    check_rc(ur.status, GNTST_bad_handle);
    check_rc(gnttab_op(GNTTABOP_unmap_and_replace, BAD_XEN, 1), -XEN_EFAULT);
    check_rc(remap_initial(WIN), 0);
}

/*
 * XSA-224: one handle with both a device and a host mapping, undone in
 * two unmaps, each dropping its own references (mm-audit counts them).
 * XSA-234: a host mapping whose PTE the guest made read-only can't be
 * unmapped as the writable grant it was (the PTE's references went with
 * its old value); made writable again, it can.
 */
static void test_unmap_steps(void)
{
    struct gnttab_map_grant_ref op;
    uint64_t l1e = pt_entry_maddr(WIN, 1);

    grant_data(24, 0);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 24,
                      GNTMAP_device_map | GNTMAP_host_map, WIN), GNTST_okay);
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(1, 24), GTF_reading | GTF_writing);
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_okay);    /* nothing */
    check_rc(gnt_unmap1(0, op.handle, op.dev_bus_addr), GNTST_okay);
    check_rc(gnt_status_bits(1, 24), 0);
    check_rc(gnt_unmap1(0, op.handle, op.dev_bus_addr), GNTST_bad_handle);
    check_rc(remap_initial(WIN), 0);

    check_rc(gnt_map1(&op, GNT_SELF_ID, 24, GNTMAP_host_map, WIN),
             GNTST_okay);
    check_rc(mmu_update1(l1e, pte_make(data_mfn, PTE_RO)), 0);
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_general_error);
    check_rc(gnt_status_bits(1, 24), GTF_reading | GTF_writing);
    check_rc(mmu_update1(l1e, pte_make(data_mfn, PTE_RW)), 0);
    check_rc(gnt_unmap1(WIN, op.handle, 0), GNTST_okay);
    check_rc(gnt_status_bits(1, 24), 0);
    check_rc(remap_initial(WIN), 0);
}

void test_main(void)
{
    data_mfn = virt_to_mfn(data);
    gnt_setup(1);
    test_map_rw();
    test_map_ro();
    test_contains_pte();
    test_bad_entries();
    test_batch_fault();
    test_handles_and_changes();
    test_unmap_and_replace();
    test_unmap_steps();
    test_success();
}
