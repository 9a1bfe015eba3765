/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/compat/'s memory_op, grant-table and physdev
 * translations against the 32-bit layout gcc -m32 gives Debian's headers
 * (compat-fixtures32.c), both ways, with handles at the top of 4 GiB on
 * the way in and values that don't fit on the way out.
 */
#include "tests/unit/compat-test.h"
#include "pv/compat/xlat-memory.c"
#include "pv/compat/xlat-grant.c"
#include "pv/compat/xlat-physdev.c"

#define TOP     0x00000000fffff000UL    /* a handle at the top of 4 GiB */
#define WIDE    0x0000000100000000UL    /* the first value too wide */

/* A native handle holding @v. */
#define SET_HANDLE(h, v) set_xen_guest_handle(h, (void *)(unsigned long)(v))

static void test_memory_reservation(void)
{
    struct xen_memory_reservation n;
    uint8_t c[sizeof(n)];
    void *top;

    FROM(xlat_memory_reservation_from_compat, struct xen_memory_reservation,
         xen_memory_reservation);
    TO(xlat_memory_reservation_to_compat, struct xen_memory_reservation,
       xen_memory_reservation);

    top = dup_exact(fx32_xen_memory_reservation_top,
                    fx32_xen_memory_reservation_top_size);
    xlat_memory_reservation_from_compat(&n, top);
    CHECK_EQ((unsigned long)n.extent_start.p, TOP);
    CHECK_EQ(n.nr_extents, 0xffffffffUL);
    free(top);
    CHECK_EQ(xlat_memory_reservation_to_compat(c, &n), 0);

    n.nr_extents = WIDE;
    CHECK_EQ(xlat_memory_reservation_to_compat(c, &n), -XEN_ERANGE);
    n.nr_extents = 1;
    SET_HANDLE(n.extent_start, WIDE);
    CHECK_EQ(xlat_memory_reservation_to_compat(c, &n), -XEN_ERANGE);
}

static void test_memory_exchange(void)
{
    static const struct xen_memory_exchange fx = FX64_xen_memory_exchange;
    struct xen_memory_exchange n;
    uint8_t c[sizeof(n)];

    FROM(xlat_memory_exchange_from_compat, struct xen_memory_exchange,
         xen_memory_exchange);
    TO(xlat_memory_exchange_to_compat, struct xen_memory_exchange,
       xen_memory_exchange);

    n = fx;
    n.nr_exchanged = WIDE;
    CHECK_EQ(xlat_memory_exchange_to_compat(c, &n), -XEN_ERANGE);
    n = fx;
    SET_HANDLE(n.out.extent_start, WIDE);
    CHECK_EQ(xlat_memory_exchange_to_compat(c, &n), -XEN_ERANGE);
    n = fx;
    n.in.nr_extents = WIDE;
    CHECK_EQ(xlat_memory_exchange_to_compat(c, &n), -XEN_ERANGE);
}

static void test_add_to_physmap(void)
{
    static const struct xen_add_to_physmap fx = FX64_xen_add_to_physmap;
    static const struct xen_add_to_physmap_batch fxb =
        FX64_xen_add_to_physmap_batch;
    struct xen_add_to_physmap n;
    struct xen_add_to_physmap_batch b;
    uint8_t c[sizeof(b)];

    FROM(xlat_add_to_physmap_from_compat, struct xen_add_to_physmap,
         xen_add_to_physmap);
    TO(xlat_add_to_physmap_to_compat, struct xen_add_to_physmap,
       xen_add_to_physmap);
    n = fx;
    n.idx = WIDE;
    CHECK_EQ(xlat_add_to_physmap_to_compat(c, &n), -XEN_ERANGE);
    n = fx;
    n.gpfn = WIDE | 5;
    CHECK_EQ(xlat_add_to_physmap_to_compat(c, &n), -XEN_ERANGE);

    FROM(xlat_add_to_physmap_batch_from_compat,
         struct xen_add_to_physmap_batch, xen_add_to_physmap_batch);
    TO(xlat_add_to_physmap_batch_to_compat,
       struct xen_add_to_physmap_batch, xen_add_to_physmap_batch);
    b = fxb;
    SET_HANDLE(b.errs, WIDE);
    CHECK_EQ(xlat_add_to_physmap_batch_to_compat(c, &b), -XEN_ERANGE);
    b = fxb;
    SET_HANDLE(b.idxs, ~0UL);
    CHECK_EQ(xlat_add_to_physmap_batch_to_compat(c, &b), -XEN_ERANGE);

    FROM(xlat_remove_from_physmap_from_compat,
         struct xen_remove_from_physmap, xen_remove_from_physmap);
}

static void test_memory_map(void)
{
    struct xen_memory_map n = { .nr_entries = 1 };
    uint8_t c[sizeof(n)];

    FROM(xlat_memory_map_from_compat, struct xen_memory_map,
         xen_memory_map);
    TO(xlat_memory_map_to_compat, struct xen_memory_map, xen_memory_map);
    SET_HANDLE(n.buffer, WIDE);
    CHECK_EQ(xlat_memory_map_to_compat(c, &n), -XEN_ERANGE);
    SET_HANDLE(n.buffer, TOP);
    CHECK_EQ(xlat_memory_map_to_compat(c, &n), 0);
}

static void test_pod_target(void)
{
    FROM(xlat_pod_target_from_compat, struct xen_pod_target, xen_pod_target);
    TO_VOID(xlat_pod_target_to_compat, struct xen_pod_target,
            xen_pod_target);
}

static void test_machphys(void)
{
    static const struct xen_machphys_mapping fx = FX64_xen_machphys_mapping;
    struct xen_machphys_mfn_list l = { .max_extents = 1 };
    struct xen_machphys_mapping m;
    uint8_t c[sizeof(m)];

    FROM(xlat_machphys_mfn_list_from_compat, struct xen_machphys_mfn_list,
         xen_machphys_mfn_list);
    TO(xlat_machphys_mfn_list_to_compat, struct xen_machphys_mfn_list,
       xen_machphys_mfn_list);
    SET_HANDLE(l.extent_start, WIDE);
    CHECK_EQ(xlat_machphys_mfn_list_to_compat(c, &l), -XEN_ERANGE);

    TO(xlat_machphys_mapping_to_compat, struct xen_machphys_mapping,
       xen_machphys_mapping);
    m = fx;
    m.v_end = HYPERVISOR_VIRT_END;          /* the 64-bit M2P's end */
    CHECK_EQ(xlat_machphys_mapping_to_compat(c, &m), -XEN_ERANGE);
    m = fx;
    m.max_mfn = WIDE;
    CHECK_EQ(xlat_machphys_mapping_to_compat(c, &m), -XEN_ERANGE);
}

static void test_gnttab_setup_table(void)
{
    struct gnttab_setup_table n = { .nr_frames = 1 };
    struct gnttab_get_status_frames s = { .nr_frames = 1 };
    uint8_t c[sizeof(n)];

    FROM(xlat_gnttab_setup_table_from_compat, struct gnttab_setup_table,
         gnttab_setup_table);
    TO(xlat_gnttab_setup_table_to_compat, struct gnttab_setup_table,
       gnttab_setup_table);
    SET_HANDLE(n.frame_list, WIDE);
    CHECK_EQ(xlat_gnttab_setup_table_to_compat(c, &n), -XEN_ERANGE);

    FROM(xlat_gnttab_get_status_frames_from_compat,
         struct gnttab_get_status_frames, gnttab_get_status_frames);
    TO(xlat_gnttab_get_status_frames_to_compat,
       struct gnttab_get_status_frames, gnttab_get_status_frames);
    SET_HANDLE(s.frame_list, WIDE);
    CHECK_EQ(xlat_gnttab_get_status_frames_to_compat(c, &s), -XEN_ERANGE);
}

static void test_gnttab_transfer(void)
{
    struct gnttab_transfer n = { .mfn = WIDE };
    uint8_t c[sizeof(n)];

    FROM(xlat_gnttab_transfer_from_compat, struct gnttab_transfer,
         gnttab_transfer);
    TO(xlat_gnttab_transfer_to_compat, struct gnttab_transfer,
       gnttab_transfer);
    CHECK_EQ(xlat_gnttab_transfer_to_compat(c, &n), -XEN_ERANGE);
}

/*
 * The fixture's source is a grant ref, its dest a gmfn with bit 31 set:
 * both zero-extended in; out, only a gmfn must fit.
 */
static void test_gnttab_copy(void)
{
    static const struct gnttab_copy fx = FX64_gnttab_copy;
    struct gnttab_copy n;
    uint8_t c[sizeof(n)];

    FROM(xlat_gnttab_copy_from_compat, struct gnttab_copy, gnttab_copy);
    TO(xlat_gnttab_copy_to_compat, struct gnttab_copy, gnttab_copy);

    n = fx;
    n.dest.u.gmfn = WIDE;
    CHECK_EQ(xlat_gnttab_copy_to_compat(c, &n), -XEN_ERANGE);
    n.flags |= GNTCOPY_dest_gref;           /* now a ref: the low half */
    n.dest.u.ref = 0x1234;
    CHECK_EQ(xlat_gnttab_copy_to_compat(c, &n), 0);
    n = fx;
    n.source.u.gmfn = WIDE;                 /* a ref, so only 0 counts */
    CHECK_EQ(xlat_gnttab_copy_to_compat(c, &n), 0);
    n.flags &= ~GNTCOPY_source_gref;
    CHECK_EQ(xlat_gnttab_copy_to_compat(c, &n), -XEN_ERANGE);
}

static void test_physdev(void)
{
    struct physdev_apic a = { .apic_physbase = 0xfee00000UL | WIDE };
    uint8_t c[sizeof(a)];

    FROM(xlat_physdev_set_iobitmap_from_compat, struct physdev_set_iobitmap,
         physdev_set_iobitmap);
    FROM(xlat_physdev_apic_from_compat, struct physdev_apic, physdev_apic);
    TO(xlat_physdev_apic_to_compat, struct physdev_apic, physdev_apic);
    CHECK_EQ(xlat_physdev_apic_to_compat(c, &a), -XEN_ERANGE);
    FROM(xlat_physdev_map_pirq_from_compat, struct physdev_map_pirq,
         physdev_map_pirq);
    TO_VOID(xlat_physdev_map_pirq_to_compat, struct physdev_map_pirq,
            physdev_map_pirq);
    FROM(xlat_physdev_pirq_eoi_gmfn_from_compat,
         struct physdev_pirq_eoi_gmfn, physdev_pirq_eoi_gmfn);
}

int main(void)
{
    RUN(test_memory_reservation);
    RUN(test_memory_exchange);
    RUN(test_add_to_physmap);
    RUN(test_memory_map);
    RUN(test_pod_target);
    RUN(test_machphys);
    RUN(test_gnttab_setup_table);
    RUN(test_gnttab_transfer);
    RUN(test_gnttab_copy);
    RUN(test_physdev);
    UNIT_EXIT();
}
