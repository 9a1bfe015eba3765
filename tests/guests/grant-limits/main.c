/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's limits on map tracking, and batches long enough to be continued:
 * device mappings until the maptrack is full (1024 frames of 256 handles,
 * one always kept back: GNTST_no_device_space after 262143), pin counts
 * that would overflow (GNTST_general_error at 127 of a kind), handles
 * reused after unmap, and map/unmap batches that the shim preempts and
 * continues (hypercall-batch=64) with every status in place.
 */
#include "grant.h"

const char test_title[] = "grant tables: maptrack limit, pin limits, batches";

static uint8_t data[PAGE_SIZE] __gnt_page;

#define CHUNK 1024
static struct gnttab_map_grant_ref maps[CHUNK];
static struct gnttab_unmap_grant_ref unmaps[CHUNK];

#define MAX_HANDLES (1024 * 256 - 1)
static grant_handle_t handles[MAX_HANDLES];

static unsigned long data_mfn;

static void test_pin_overflow(void)
{
    struct gnttab_map_grant_ref op;
    unsigned int i;

    gnt_grant(1, 100, GNT_SELF_ID, data_mfn, 0);
    for ( i = 0; i < 127; i++ )
    {
        if ( gnt_map1(&op, GNT_SELF_ID, 100, GNTMAP_device_map |
                      GNTMAP_readonly, 0) != GNTST_okay )
            return test_fail("pin %u of ref 100 refused", i);
        handles[i] = op.handle;
    }
    check_rc(gnt_map1(&op, GNT_SELF_ID, 100, GNTMAP_device_map |
                      GNTMAP_readonly, 0), GNTST_okay);
    handles[127] = op.handle;
    /* 128 read-only device pins set the overflow bit: no more of any. */
    check_rc(gnt_map1(&op, GNT_SELF_ID, 100, GNTMAP_device_map |
                      GNTMAP_readonly, 0), GNTST_general_error);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 100, GNTMAP_device_map, 0),
             GNTST_general_error);
    for ( i = 0; i < 128; i++ )
        check_rc(gnt_unmap1(0, handles[i], (uint64_t)data_mfn << 12),
                 GNTST_okay);
    check_rc(gnt_status_bits(1, 100), 0);
}

/*
 * Map @n device mappings of refs 128.. in one call: 254 a ref, read-only
 * and writable in turn (127 of each kind is what a pin count holds).
 */
#define PER_REF 254
static void map_chunk(unsigned int n, unsigned int first)
{
    unsigned int i;

    for ( i = 0; i < n; i++ )
        maps[i] = (struct gnttab_map_grant_ref){
            .dom = GNT_SELF_ID, .ref = 128 + (first + i) / PER_REF,
            .flags = GNTMAP_device_map |
                     ((first + i) % 2 ? GNTMAP_readonly : 0),
            .status = 99,
        };
    check_rc(gnttab_op(GNTTABOP_map_grant_ref, maps, n), 0);
}

static void test_maptrack_limit(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 8 };
    struct gnttab_map_grant_ref op;
    xen_pfn_t frames[8];
    unsigned int done = 0, i, n;

    set_xen_guest_handle(st.frame_list, frames);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    gnt_setup(GNT_MAP_FRAMES);
    for ( i = 128; i < 128 + MAX_HANDLES / PER_REF + 1; i++ )
        gnt_grant(1, i, GNT_SELF_ID, data_mfn, 0);

    while ( done < MAX_HANDLES )
    {
        n = MAX_HANDLES - done < CHUNK ? MAX_HANDLES - done : CHUNK;
        map_chunk(n, done);
        for ( i = 0; i < n; i++ )
        {
            if ( maps[i].status != GNTST_okay )
                return test_fail("map %u: status %d", done + i,
                                 maps[i].status);
            handles[done + i] = maps[i].handle;
        }
        done += n;
    }
    check_rc(gnt_map1(&op, GNT_SELF_ID, 2000, GNTMAP_device_map |
                      GNTMAP_readonly, 0), GNTST_no_device_space);

    /* A handle freed is a handle to reuse. */
    check_rc(gnt_unmap1(0, handles[7], (uint64_t)data_mfn << 12),
             GNTST_okay);
    check_rc(gnt_map1(&op, GNT_SELF_ID, 128, GNTMAP_device_map |
                      GNTMAP_readonly, 0), GNTST_okay);
    handles[7] = op.handle;

    /* Unmap them all, in batches the shim continues. */
    for ( done = 0; done < MAX_HANDLES; done += n )
    {
        n = MAX_HANDLES - done < CHUNK ? MAX_HANDLES - done : CHUNK;
        for ( i = 0; i < n; i++ )
            unmaps[i] = (struct gnttab_unmap_grant_ref){
                .dev_bus_addr = (uint64_t)data_mfn << 12,
                .handle = handles[done + i], .status = 99,
            };
        check_rc(gnttab_op(GNTTABOP_unmap_grant_ref, unmaps, n), 0);
        for ( i = 0; i < n; i++ )
            if ( unmaps[i].status != GNTST_okay )
                return test_fail("unmap %u: status %d", done + i,
                                 unmaps[i].status);
    }
    for ( i = 128; i < 128 + MAX_HANDLES / PER_REF + 1; i++ )
        if ( gnt_status_bits(1, i) )
            return test_fail("ref %u still reading", i);
    check_rc(gnt_set_version(2), 0);
}

void test_main(void)
{
    data_mfn = virt_to_mfn(data);
    gnt_setup(1);
    test_pin_overflow();
    test_maptrack_limit();
    test_success();
}
