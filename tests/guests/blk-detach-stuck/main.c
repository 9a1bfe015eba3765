/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A blkfront that never lets go of a disk the host takes back (QEMU's
 * device_del, from run.sh's `monitor` line once this test says it is
 * connected).  The shim asks as xl block-detach does (online 0, Closing)
 * and goes on answering requests meanwhile; a frontend that stays
 * Connected does not keep the device: as libxl forces a removal after
 * its timeout, the shim takes the disk anyway after backend-remove-timeout
 * (10 s by default; the expect file gives 2 s, and the read while Closing
 * comes well within it): the ring and the port let go, both directories
 * removed, the device given back (the shim's log says so, for run.sh to
 * check).  With the lock profile on (the expect file), the driver's queue
 * lock leaves it once its memory goes back, the backend's stays.
 */
#include "lockprof.h"                   /* first: it wants __XEN_TOOLS__ */
#include "blkfront.h"

const char test_title[] = "blk-detach-stuck: a frontend that never closes";

#define REF_DATA    9
#define REF_RING    30
#define SECTORS     2048                /* disk virtio 1M */
#define VQ_LOCK     "virtio-blk0->q[0].lock"

static uint8_t ring_page[PAGE_SIZE] __gnt_page;
static uint8_t data[PAGE_SIZE] __gnt_page;

static struct blkfront xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = SECTORS, .ref_ring = REF_RING, .ring_page = ring_page,
};
static struct blkfront *const d = &xvda;

static bool gone(const char *value)
{
    return !strcmp(value, "ENOENT") || !strcmp(value, "EACCES");
}

void test_main(void)
{
    evtchn_status_t st;
    uint64_t start;

    if ( !blk_test_init() )
        return;
    blk_wait_be_state(d, XenbusStateInitWait);
    blk_connect(d);
    blk_grant(REF_DATA, data, 0);
    blk_read_page(d, REF_DATA, data, 8, "connected");
    check_rc(lockprof_find(VQ_LOCK, LOCKPROF_TYPE_GLOBAL, NULL), 1);
    printf("blk-detach-stuck: connected\n");

    /* The host's removal: Closing, which this frontend ignores. */
    if ( !blk_wait_be_state(d, XenbusStateClosing) )
        return;
    blk_expect_node(blk_be(d, "online"), "0");
    blk_read_page(d, REF_DATA, data, 16, "closing");

    /*
     * Taken all the same: the backend's directory goes (a node under
     * domain 0's, which the guest can't read, is EACCES once gone, as in
     * Xen's xenstored: the nearest parent's permissions answer).
     */
    start = system_time();
    while ( !gone(blk_xs_read(blk_be(d, "state"))) )
    {
        if ( system_time() - start > 3 * BLK_WAIT_NS )
        {
            test_fail("the backend stays: state %s",
                      blk_xs_read(blk_be(d, "state")));
            return;
        }
        blk_yield();
    }
    blk_expect_node(blk_fe(d, "state"), "ENOENT");
    /* The ring's grant and the port are the guest's alone again. */
    check_rc(gnt_status_bits(1, d->ref_ring), 0);
    check_rc(gnt_status_bits(1, REF_DATA), 0);
    check_rc(evtchn_status_of(d->port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 0 )
        test_fail("port %u status %u after the removal", d->port, st.status);
    /* The driver's memory goes back a second after the device left. */
    start = system_time();
    while ( lockprof_find(VQ_LOCK, LOCKPROF_TYPE_GLOBAL, NULL) )
    {
        if ( blk_waited_long(start) )
        {
            test_fail("%s still in the lock profile", VQ_LOCK);
            break;
        }
        blk_yield();
    }
    check_rc(lockprof_find("xvda->lock", LOCKPROF_TYPE_PERDOM, NULL), 1);
    test_success();
}
