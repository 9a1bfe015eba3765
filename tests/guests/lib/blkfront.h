/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A blkfront for test kernels: one vbd's xenstore nodes and XenbusState
 * handshake, a one-page ring in the guest's own ABI (x86_64-abi, or
 * x86_32-abi for a 32-bit kernel), requests pushed and responses taken
 * as Linux's xen-blkfront does, and the disk images' pattern (run.sh:
 * sector n holds n in each of its 64-bit words).
 */
#ifndef GUEST_BLKFRONT_H
#define GUEST_BLKFRONT_H

#include "guest.h"
#include "grant.h"
#include "event.h"
#include "xs.h"

/* ring.h's barriers for the guest library's interface version. */
#define xen_mb()    __sync_synchronize()
#define xen_rmb()   asm volatile ( "" ::: "memory" )
#define xen_wmb()   asm volatile ( "" ::: "memory" )
#include <xen/io/ring.h>
#include <xen/io/blkif.h>
#include <xen/io/protocols.h>
#include <xen/io/xenbus.h>

struct blkfront {
    const char *fe, *be;            /* "device/vbd/51712", its backend's */
    unsigned long sectors;
    grant_ref_t ref_ring;           /* the ring's grant (version 1) */
    uint8_t *ring_page;
    struct blkif_front_ring ring;
    evtchn_port_t port;
    uint64_t id;                    /* the last request's */
};

/*
 * What a block test needs first: events, the xenstore ring, a one-frame
 * grant table (version 1); false, the test in ERROR, if one is missing.
 */
bool blk_test_init(void);

/* @d's frontend or backend node @name (two calls' results live at once). */
const char *blk_fe(const struct blkfront *d, const char *name);
const char *blk_be(const struct blkfront *d, const char *name);
/* A node's value (a static buffer), or the error xenstore answered. */
const char *blk_xs_read(const char *path);
void blk_expect_node(const char *path, const char *want);

/* Wait for the backend's state to become @want; the test fails if not. */
bool blk_wait_be_state(struct blkfront *d, unsigned int want);
void blk_fe_state(struct blkfront *d, unsigned int s);
/* Grant @page to domain 0 in entry @ref (GTF_permit_access | @extra). */
void blk_grant(grant_ref_t ref, void *page, uint16_t extra);

/*
 * A new port for domain 0, the ring set up and granted, its nodes
 * written, Initialised, the backend Connected, and Connected.
 */
void blk_connect(struct blkfront *d);
/* Closing, Closed and back to InitWait, the port closed: blk_connect(). */
void blk_disconnect(struct blkfront *d, const char *why);

static inline struct blkif_request_segment blk_seg(grant_ref_t ref,
                                                   uint8_t first,
                                                   uint8_t last)
{
    return (struct blkif_request_segment){ .gref = ref, .first_sect = first,
                                           .last_sect = last };
}

/*
 * Put request @id on @ring (nr_segments @nseg, of which at most 11 are
 * copied from @seg), not yet pushed.
 */
void blk_ring_put(struct blkif_front_ring *ring, uint64_t id, uint8_t op,
                  uint64_t sector, unsigned int nseg,
                  const struct blkif_request_segment *seg);
/*
 * blk_ring_put() on @d's ring, with id d->id + 1 (then d->id), and push
 * it, notifying if the backend asks.  blk_push_only() leaves the push to
 * the caller.
 */
void blk_push_only(struct blkfront *d, uint8_t op, uint64_t sector,
                   unsigned int nseg, const struct blkif_request_segment *seg);
void blk_push(struct blkfront *d, uint8_t op, uint64_t sector,
              unsigned int nseg, const struct blkif_request_segment *seg);
/* Wait for the next response and take it; false (test failed) if none. */
bool blk_response(struct blkfront *d, struct blkif_response *rsp);
/* One request and its response's status (-99 if none came). */
int blk_rq(struct blkfront *d, uint8_t op, uint64_t sector,
           unsigned int nseg, const struct blkif_request_segment *seg);

/* Sector @n's contents as the image was made, in @p at byte @off. */
bool blk_holds(const uint8_t *p, unsigned int off, uint64_t n);

/*
 * One page read from @sector on @d into @page (granted as @ref): answered
 * OK, with the image's sectors from @sector; a failure names @when.
 */
void blk_read_page(struct blkfront *d, grant_ref_t ref, uint8_t *page,
                   uint64_t sector, const char *when);

static inline void blk_yield(void)
{
    hypercall_sched_op(SCHEDOP_yield, NULL);
}

/*
 * How long the backend and the device get to answer, in system time:
 * generous, since TCG on a loaded host can take its time, and counted in
 * time rather than in yields, which may take a microsecond each.
 */
#define BLK_WAIT_NS     (20ULL * 1000000000ULL)

static inline bool blk_waited_long(uint64_t start)
{
    return system_time() - start > BLK_WAIT_NS;
}

#endif /* GUEST_BLKFRONT_H */
