/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two disks on one device queue: xvda and xvdb are partitions 1 and 2 of
 * one virtio-blk disk (expect: a GPT, vbd=...:part=N) whose queue holds
 * four requests and serves twenty a second, so xvda's eight reads of
 * eight pages (four device requests each: two segments a request) keep
 * it full.  xvdb's one read, pushed behind them, finds no room and
 * waits for it; the room comes only from xvda's completions, which must
 * raise xvdb's ring too (a completion of its own never comes).  Every
 * read is answered, with the partitions' own sectors.
 */
#include "blkfront.h"

const char test_title[] = "blk-shared-queue: two disks wait on one device queue";

#define NREQ        8
#define NSEG        8
#define REF_A_RING  30
#define REF_B_RING  31
#define REF_B_DATA  40
#define REF_A_DATA  100                 /* NREQ * NSEG of them */
#define PART1       2048                /* sfdisk: 1 MiB aligned, 1 MiB */
#define PART2       4096

static uint8_t ring_a[PAGE_SIZE] __gnt_page, ring_b[PAGE_SIZE] __gnt_page;
static uint8_t data_a[NREQ * NSEG][PAGE_SIZE] __gnt_page;
static uint8_t data_b[PAGE_SIZE] __gnt_page;

static struct blkfront xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = 2048, .ref_ring = REF_A_RING, .ring_page = ring_a,
};
static struct blkfront xvdb = {
    .fe = "device/vbd/51728", .be = "/local/domain/0/backend/vbd/1/51728",
    .sectors = 2048, .ref_ring = REF_B_RING, .ring_page = ring_b,
};

/* Responses taken off @d's ring so far, each checked OK. */
static unsigned int take(struct blkfront *d, const char *name)
{
    static unsigned int n[2];
    unsigned int *got = &n[d == &xvdb];

    while ( RING_HAS_UNCONSUMED_RESPONSES(&d->ring) )
    {
        struct blkif_response *r = RING_GET_RESPONSE(&d->ring,
                                                     d->ring.rsp_cons);

        if ( r->status != BLKIF_RSP_OKAY )
            test_fail("%s: request %llx: status %d", name,
                      (unsigned long long)r->id, r->status);
        d->ring.rsp_cons++;
        ++*got;
    }
    return *got;
}

void test_main(void)
{
    struct blkif_request_segment seg[NSEG];
    uint64_t start;
    unsigned int i, k, notify;

    if ( !blk_test_init() )
        return;
    blk_wait_be_state(&xvda, XenbusStateInitWait);
    blk_wait_be_state(&xvdb, XenbusStateInitWait);
    blk_connect(&xvda);
    blk_connect(&xvdb);
    for ( i = 0; i < NREQ * NSEG; i++ )
        blk_grant(REF_A_DATA + i, data_a[i], 0);
    blk_grant(REF_B_DATA, data_b, 0);

    /* xvda: eight reads of eight pages, sectors 64 * i on. */
    for ( i = 0; i < NREQ; i++ )
    {
        for ( k = 0; k < NSEG; k++ )
            seg[k] = blk_seg(REF_A_DATA + i * NSEG + k, 0, 7);
        blk_push_only(&xvda, BLKIF_OP_READ, 64 * i, NSEG, seg);
    }
    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&xvda.ring, notify);
    if ( notify )
        evtchn_send(xvda.port);
    /* xvdb: one read of its sector 8, behind them. */
    seg[0] = blk_seg(REF_B_DATA, 0, 7);
    blk_push(&xvdb, BLKIF_OP_READ, 8, 1, seg);

    start = system_time();
    while ( take(&xvda, "xvda") < NREQ || take(&xvdb, "xvdb") < 1 )
    {
        if ( blk_waited_long(start) )
        {
            test_fail("after %u s: %u of xvda's %u reads answered, %u of "
                      "xvdb's 1", (unsigned int)(BLK_WAIT_NS / 1000000000),
                      take(&xvda, "xvda"), NREQ, take(&xvdb, "xvdb"));
            return;
        }
        blk_yield();
    }
    for ( i = 0; i < NREQ * NSEG; i++ )
        if ( !blk_holds(data_a[i], 0, PART1 + 64 * (i / NSEG) + 8 * (i % NSEG)) )
            test_fail("xvda: read %u, page %u wrong", i / NSEG, i % NSEG);
    if ( !blk_holds(data_b, 0, PART2 + 8) )
        test_fail("xvdb: sector 8 read wrong");
    printf("blk-shared-queue: %u reads on xvda and 1 on xvdb answered\n",
           NREQ);
    test_success();
}
