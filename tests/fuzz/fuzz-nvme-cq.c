/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for an NVMe completion queue (drivers/nvme/nvme-lib.c)
 * written by a broken controller: the input sets the queue's depth and
 * id, then scripts commands submitted, completions posted properly, and
 * entries written anywhere with any phase tag, command id, queue id and
 * status, and the driver reaping as nvme-io.c's reap() does.  The head
 * stays in the queue (allocated to its exact size), a queue nobody
 * writes yields at most its depth of entries, only outstanding commands
 * complete, each once, and every status means something.
 */
#include "tests/fuzz/fuzz.h"
#include "drivers/nvme/nvme-lib.c"

#define DEPTH_MAX   64

static struct nvme_cq_ring r;
static uint16_t qid, depth, dev_tail;
static uint8_t dev_phase;
static bool out[DEPTH_MAX];             /* command slot i outstanding */
static unsigned int quiet_pops;         /* entries since the last write */

static void post(unsigned int at, uint16_t cid, uint16_t sq, uint16_t st,
                 uint8_t phase)
{
    r.cqe[at] = (struct nvme_cqe){ .result = cid, .sq_id = sq, .cid = cid,
                                   .status = (st & ~1u) | phase };
    quiet_pops = 0;
}

static void reap(void)
{
    struct nvme_cqe c;
    enum blk_status st;
    int slot;

    while ( nvme_cq_pop(&r, &c) )
    {
        FUZZ_ASSERT(r.head < r.size && r.phase <= 1);
        FUZZ_ASSERT(++quiet_pops <= depth);
        st = nvme_blk_status(c.status);
        FUZZ_ASSERT(st == BLK_OK || st == BLK_EIO || st == BLK_EUNSUPP ||
                    st == BLK_EROFS);
        FUZZ_ASSERT((st == BLK_OK) == !(c.status >> 1));
        slot = nvme_cqe_slot(&c, qid, depth - 1);
        if ( slot < 0 )
            continue;                   /* a stray: ignored */
        FUZZ_ASSERT(slot < depth - 1 && slot == c.cid && c.sq_id == qid);
        out[slot] = false;              /* (a stray for a free slot too) */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    unsigned int i, at;

    depth = 2 + fuzz_u8(&in) % (DEPTH_MAX - 1);
    qid = 1 + fuzz_u8(&in) % 8;
    r = (struct nvme_cq_ring){ calloc(depth, sizeof(struct nvme_cqe)),
                               depth, 0, 1 };
    memset(out, 0, sizeof(out));
    dev_tail = 0;
    dev_phase = 1;
    quiet_pops = 0;
    while ( in.left )
    {
        switch ( fuzz_u8(&in) & 3 )
        {
        case 0:                         /* a command submitted */
            for ( i = 0; i < depth - 1U && out[i]; i++ )
                ;
            if ( i < depth - 1U )
                out[i] = true;
            break;
        case 1:                         /* the next one done, properly */
            for ( i = 0; i < depth - 1U && !out[i]; i++ )
                ;
            if ( i == depth - 1U )
                break;
            post(dev_tail, i, qid, fuzz_u16(&in), dev_phase);
            if ( ++dev_tail == depth )
            {
                dev_tail = 0;
                dev_phase ^= 1;
            }
            break;
        case 2:                         /* anything, anywhere */
            at = fuzz_u8(&in) % depth;
            post(at, fuzz_u16(&in), fuzz_u16(&in), fuzz_u16(&in),
                 fuzz_u8(&in) & 1);
            break;
        case 3:
            reap();
            break;
        }
    }
    reap();
    free((void *)r.cqe);
    return 0;
}
