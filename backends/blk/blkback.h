/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the block backend (backends/blk/): a guest disk (vbd) over one
 * of drivers/' block devices, its xenstore directories and handshake
 * (xenbus.c), and its ring and the requests in flight (ring.c).
 * Everything here is under the domain lock (pv_backend_locked()).
 */
#ifndef BACKENDS_BLK_BLKBACK_H
#define BACKENDS_BLK_BLKBACK_H

#include "backends/blk/blkif-abi.h"
#include "drivers/block.h"
#include "shim/frame.h"

#define VBD_MAX         4           /* xvda .. xvdd */
#define VBD_RING_SLOTS  32          /* a one-page ring, either ABI */

/*
 * One guest request in flight: its grants mapped, and the device
 * requests it became: one, or one per segment when the device can't
 * take the segments' layout in one (NVMe's page boundary).
 */
struct vbd_req {
    struct vbd *vbd;
    bool in_use;
    bool flush_after;               /* a write to flush once it completes */
    uint8_t operation;              /* BLKIF_OP_*, echoed */
    uint64_t id;                    /* the guest's, echoed */
    unsigned int nr_segs;           /* mapped */
    unsigned int nr_subs, next_sub; /* device requests, the next to submit */
    unsigned int pending;           /* device requests not yet done */
    enum blk_status status;         /* the first failure, else BLK_OK */
    unsigned int handle[BLKIF_MAX_SEGMENTS_PER_REQUEST];
    struct blk_seg seg[BLKIF_MAX_SEGMENTS_PER_REQUEST];
    struct blk_request sub[BLKIF_MAX_SEGMENTS_PER_REQUEST];
};

struct vbd {
    unsigned int devid;             /* xl's: (202 << 8) | (disk << 4) */
    char name[8];                   /* "xvda" */
    struct blk_dev *dev;
    bool ro;
    char be[48], fe[48];            /* the two xenstore directories */
    unsigned int be_state;          /* XenbusState last written */
    bool recheck;                   /* look at the frontend's state again */

    /* The connection: ring and port held until no request is in flight. */
    bool connected;                 /* taking requests */
    bool broken;                    /* the frontend broke the ring */
    bool x86_32;                    /* protocol x86_32-abi */
    bool have_ring;
    bool busy;                      /* the device queue was full */
    struct vbd_req *stalled;        /* its next_sub waits for room */
    unsigned int ring_handle;       /* pv_grant_map_dev()'s */
    unsigned int port;              /* the shim's end, 0: none */
    union {
        struct blkif_back_ring native;
        struct blkif_x86_32_back_ring x86_32;
    } ring;
    unsigned int inflight;
    struct vbd_req req[VBD_RING_SLOTS];
};

extern struct vbd vbds[VBD_MAX];
extern unsigned int nr_vbds;

/* xenbus.c */
void vbd_frontend_changed(struct vbd *v);
void vbd_broken(struct vbd *v, const char *why, unsigned int a,
                unsigned int b);
void vbd_drained(struct vbd *v);

/* ring.c: serve the ring (bounded: true if more is left). */
bool vbd_ring_work(struct vbd *v);

#endif /* BACKENDS_BLK_BLKBACK_H */
