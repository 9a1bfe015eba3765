/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two namespaces of one NVMe controller, xvda and xvdb, on the same
 * queues, and the host taking the controller back (QEMU's device_del,
 * from run.sh's `monitor` line once this test says it is connected):
 * xvda closes at once and its namespace goes back to the host first,
 * while xvdb stays and reads on.  Its completions come on the queues'
 * interrupts, which namespace 1's device took first: they must still
 * run with that device given back, or xvdb's read is never answered and
 * its disk never let go.  Then xvdb closes too and the controller goes.
 */
#include "blkfront.h"

const char test_title[] = "blk-nvme-namespaces: one namespace goes, the other reads on";

#define REF_A_RING  30
#define REF_B_RING  31
#define REF_DATA    40

static uint8_t ring_a[PAGE_SIZE] __gnt_page, ring_b[PAGE_SIZE] __gnt_page;
static uint8_t data[PAGE_SIZE] __gnt_page;

static struct blkfront xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = 2048, .ref_ring = REF_A_RING, .ring_page = ring_a,
};
static struct blkfront xvdb = {
    .fe = "device/vbd/51728", .be = "/local/domain/0/backend/vbd/1/51728",
    .sectors = 2048, .ref_ring = REF_B_RING, .ring_page = ring_b,
};

/* @d's backend directory gone (EACCES: its parent's, domain 0's). */
static bool removed(struct blkfront *d, const char *name)
{
    uint64_t start = system_time();
    const char *v;

    for ( ;; )
    {
        v = blk_xs_read(blk_be(d, "state"));
        if ( !strcmp(v, "ENOENT") || !strcmp(v, "EACCES") )
            return true;
        if ( blk_waited_long(start) )
        {
            test_fail("%s: the backend stays: state %s", name, v);
            return false;
        }
        blk_yield();
    }
}

void test_main(void)
{
    if ( !blk_test_init() )
        return;
    blk_wait_be_state(&xvda, XenbusStateInitWait);
    blk_wait_be_state(&xvdb, XenbusStateInitWait);
    blk_connect(&xvda);
    blk_connect(&xvdb);
    blk_grant(REF_DATA, data, 0);
    blk_read_page(&xvda, REF_DATA, data, 8, "xvda");
    blk_read_page(&xvdb, REF_DATA, data, 16, "xvdb");
    printf("blk-nvme-namespaces: connected\n");

    /* The host's removal: both Closing.  xvda closes and goes. */
    if ( !blk_wait_be_state(&xvda, XenbusStateClosing) ||
         !blk_wait_be_state(&xvdb, XenbusStateClosing) )
        return;
    blk_fe_state(&xvda, XenbusStateClosed);
    if ( !removed(&xvda, "xvda") )
        return;
    printf("blk-nvme-namespaces: xvda removed\n");

    /* xvdb, still Closing, is still answered. */
    blk_read_page(&xvdb, REF_DATA, data, 24, "xvdb after xvda went");
    blk_read_page(&xvdb, REF_DATA, data, 32, "xvdb after xvda went");
    printf("blk-nvme-namespaces: xvdb answered after xvda went\n");
    blk_fe_state(&xvdb, XenbusStateClosed);
    if ( !removed(&xvdb, "xvdb") )
        return;
    test_success();
}
