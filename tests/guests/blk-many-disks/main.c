/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * More disks than xl's first sixteen: the seventeenth is xvdq, and xl
 * names it by the extended device id, (1 << 28) | (disk << 8), where
 * the first sixteen have (202 << 8) | (disk << 4): its frontend and
 * backend directories and virtual-device as the toolstack writes them,
 * and a ring to it that reads the disk (the sixteenth, xvdp, too).
 */
#include "blkfront.h"

const char test_title[] = "blk-many-disks: xvdq, the extended device id";

#define REF_P_RING  30
#define REF_Q_RING  31
#define REF_DATA    40

static uint8_t ring_p[PAGE_SIZE] __gnt_page, ring_q[PAGE_SIZE] __gnt_page;
static uint8_t data[PAGE_SIZE] __gnt_page;

static struct blkfront xvdp = {
    .fe = "device/vbd/51952", .be = "/local/domain/0/backend/vbd/1/51952",
    .sectors = 2048, .ref_ring = REF_P_RING, .ring_page = ring_p,
};
static struct blkfront xvdq = {
    .fe = "device/vbd/268439552",
    .be = "/local/domain/0/backend/vbd/1/268439552",
    .sectors = 2048, .ref_ring = REF_Q_RING, .ring_page = ring_q,
};

void test_main(void)
{
    if ( !blk_test_init() )
        return;
    blk_expect_node(blk_fe(&xvdq, "virtual-device"), "268439552");
    blk_expect_node(blk_be(&xvdq, "dev"), "xvdq");
    blk_expect_node(blk_be(&xvdq, "frontend"),
                    "/local/domain/1/device/vbd/268439552");
    blk_expect_node(blk_fe(&xvdp, "virtual-device"), "51952");
    blk_wait_be_state(&xvdp, XenbusStateInitWait);
    blk_wait_be_state(&xvdq, XenbusStateInitWait);
    blk_connect(&xvdp);
    blk_connect(&xvdq);
    blk_grant(REF_DATA, data, 0);
    blk_read_page(&xvdp, REF_DATA, data, 8, "xvdp");
    blk_read_page(&xvdq, REF_DATA, data, 16, "xvdq");
    test_success();
}
