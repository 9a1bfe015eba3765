/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the block backend (backends/blk/): a guest disk (vbd) over one
 * of drivers/' block devices, its xenstore directories and handshake
 * (xenbus.c), and its rings (one per queue) and the requests in flight
 * (ring.c).  A vbd's handshake is under its lock (vbd.lock, CPU 0's
 * work); each ring, its requests and their device requests under the
 * ring's own (vbd.ring_lock[], the ring's CPU's work and its
 * completions), the connection under both; the request slots and the
 * maps all the rings share are taken and given back atomically.  The
 * pv/ calls it makes want pv_backend_locked() besides
 * (docs/architecture.md, "Locks").
 */
#ifndef BACKENDS_BLK_BLKBACK_H
#define BACKENDS_BLK_BLKBACK_H

#include "backends/blk/blkif-ring.h"
#include "backends/blk/gpt.h"
#include "drivers/block.h"
#include "shim/frame.h"
#include "shim/log-budget.h"
#include "shim/spinlock.h"

#define VBD_MAX         BLK_MAX_DEVS    /* xvda .. xvdz */
#define VBD_MAX_QUEUES  BLK_MAX_QUEUES  /* multi-queue-max-queues at most */
#define VBD_REQS        32          /* requests in flight, per vbd */
BUILD_BUG_ON(VBD_REQS > 8 * sizeof(unsigned long));   /* vbd.req_used */
#define VBD_SEGS_MAX    BLKIF_INDIRECT_SEGS_MAX
/*
 * Segments a vbd keeps mapped for its device at most: a full one-page
 * ring of Linux's default 32-segment requests.  The shim's maptrack is
 * shared by every backend (pv/pv.h, PV_BACKEND_MAPS), and a ring of
 * 256-segment requests would want 8192: a request that would pass this
 * waits on its ring for a completion, as for a free vbd_req.
 */
#define VBD_MAPS        (VBD_REQS * 32)

struct vbd;
struct vbd_ring;

/*
 * One guest request in flight: its grants mapped, and the device
 * requests it became: one, several when the device can't take the
 * segments' layout in one (NVMe's page boundary), or a discard's range
 * in pieces of the device's size, one after the other.
 */
struct vbd_req {
    struct vbd_ring *ring;
    bool flush_after;               /* a write to flush once it completes */
    unsigned int maps;              /* of the vbd's VBD_MAPS, held */
    uint8_t operation;              /* BLKIF_OP_*, echoed */
    uint64_t id;                    /* the guest's, echoed */
    unsigned int nr_segs;           /* mapped */
    unsigned int nr_subs, next_sub; /* device requests, the next to submit */
    unsigned int pending;           /* device requests not yet done */
    enum blk_status status;         /* the first failure, else BLK_OK */
    uint64_t left_sector, left;     /* a discard: what is still to go */
    bool stalled;                   /* on its ring's stalled list */
    struct vbd_req *next_stalled;
    /* Filled as used (dispatch() sets the fields above alone). */
    unsigned int handle[VBD_SEGS_MAX];
    struct blkif_request_segment rseg[VBD_SEGS_MAX];   /* the guest's */
    struct blk_seg seg[VBD_SEGS_MAX];
    struct blk_request sub[VBD_SEGS_MAX];
};

/*
 * A ring (queue-N, or the one of a frontend without multi-queue), under
 * its lock (vbd_ring_lock()) but where said.
 */
struct vbd_ring {
    struct vbd *vbd;
    unsigned int index;
    struct blkif_ring ring;
    unsigned int nr_pages;          /* mapped: ring_handle[0..nr_pages) */
    unsigned int ring_handle[BLKIF_RING_PAGES_MAX];
    unsigned int port;              /* the shim's end, 0: none */
    bool open;                      /* taking requests (the vbd connected) */
    /*
     * The CPU that serves it, where its port raises the softirq:
     * smp_queue_cpu() of its index, the CPU whose guest vCPU blk-mq
     * sends on it, and whose device queue (if the device has as many)
     * it submits on and completes on.
     */
    unsigned int cpu;
    /*
     * No room (a slot, maps, the device's queue): a completion raises
     * us.  Read by other rings' completions without our lock.
     */
    bool busy;
    bool batching;                  /* in vbd_ring_work(): it kicks */
    /*
     * Requests whose next_sub waits for room in the device's queue, in
     * order: one the ring handed over, and any whose completion found
     * more to submit (a discard's next pieces, a barrier's flush).
     */
    struct vbd_req *stalled, *stalled_tail;
    unsigned int inflight;
    /* This connection's counts, for the 'b' debug key (its lock). */
    unsigned long reqs, segs, subs;     /* taken, their segments, device's */
    unsigned long stalls;               /* no room in the device's queue */
    unsigned long no_slot;              /* no free vbd_req */
    unsigned long no_maps;              /* over the vbd's VBD_MAPS */
    unsigned long runs;                 /* vbd_ring_work() that took some */
    unsigned long away;                 /* requests taken on another CPU */
    unsigned long notifies;             /* events sent the frontend */
};

struct vbd {
    /*
     * The locks first: a removed disk's slot is reset from devid on, its
     * locks kept (another CPU may be looking at them).  lock: the
     * handshake, removal, everything below but the rings' own; a ring's
     * pages, port and opening change under both.
     */
    spinlock_t lock;
    spinlock_t ring_lock[VBD_MAX_QUEUES];
    unsigned int devid;             /* xl's: vbd_vdev_devid() */
    char name[8];                   /* "xvda" */
    struct log_budget log;          /* its frontend's doings, said */
    struct blk_dev *dev;
    /*
     * The device's sectors the guest sees: all of them, or one GPT
     * partition's (part: its number, 0 for the whole device).
     */
    uint64_t start, nr_sectors;
    unsigned int part;
    bool ro;
    bool cdrom;                     /* device-type cdrom (and ro) */
    bool discard;                   /* feature-discard offered */
    unsigned int lbs;               /* logical block, in 512-byte sectors */
    char be[48], fe[48];            /* the two xenstore directories */
    unsigned int be_state;          /* XenbusState last written */
    bool recheck;                   /* look at the frontend's state again */
    bool resized;                   /* the device's size changed */
    /*
     * The host takes the device back (xl block-detach): Closing until the
     * frontend has let go, then its directories removed and the device
     * given back; a gone vbd is nothing (its slot free for the next).
     */
    bool removing, gone;
    bool forced;                    /* its frontend did not close in time */
    uint64_t remove_by;             /* then taken anyway (libxl's timeout) */

    /* The connection: rings and ports held until nothing is in flight. */
    bool connected;                 /* taking requests */
    /*
     * The frontend broke a ring (set by the ring, atomically): no ring
     * takes requests; close_owed: CPU 0 is to disconnect and close.
     */
    bool broken, close_owed;
    bool x86_32;                    /* protocol x86_32-abi */
    unsigned int nr_rings;          /* set up: rings[0..nr_rings) */
    struct vbd_ring rings[VBD_MAX_QUEUES];
    /* Atomic: every ring's. */
    unsigned int inflight;          /* requests taken, not yet answered */
    unsigned int maps;              /* segments the requests hold */
    unsigned long completed;        /* requests answered, ever */
    unsigned long req_used;         /* req[n] taken: bit n */
    struct vbd_req *req;            /* VBD_REQS of them */
};

/* A line about @v its frontend caused: "blkback: xvda: ...", budgeted. */
#define vbd_printk(v, level, fmt, ...)                                      \
    budget_printk(&(v)->log, level, "blkback", (v)->name,                  \
                  "blkback: %s: " fmt, (v)->name, ##__VA_ARGS__)

static inline spinlock_t *vbd_ring_lock(struct vbd_ring *r)
{
    return &r->vbd->ring_lock[r->index];
}

extern struct vbd vbds[VBD_MAX];
extern unsigned int nr_vbds;

/*
 * setup.c: a node of @v's backend directory (@fe false) or frontend one:
 * @value, or @val as @fmt (one unsigned long) gives it.
 */
void vbd_nodes(const struct vbd *v, bool fe, const char *name,
               const char *value);
void vbd_node(const struct vbd *v, bool fe, const char *name,
              const char *fmt, unsigned long val);

/*
 * xenbus.c.  The handshake runs on CPU 0 alone (its xenstore calls);
 * vbd_broken() may come from a ring's CPU, and vbd_close_owed() then
 * writes Closing from CPU 0.
 */
void vbd_frontend_changed(struct vbd *v);
void vbd_close_owed(struct vbd *v);
void vbd_broken(struct vbd_ring *r, const char *why, unsigned int a,
                unsigned int b);
void vbd_drained(struct vbd *v);
void vbd_resize(struct vbd *v);
/*
 * A removal: Closing now; whether the frontend has let go (no ring, no
 * request, its state Closed or never started), so it can go.
 */
void vbd_remove_start(struct vbd *v);
bool vbd_let_go(struct vbd *v);
/*
 * A frontend that has not closed by @v->remove_by: disconnected all the
 * same (the requests in flight finish), then gone whatever its state.
 */
void vbd_force_close(struct vbd *v);
/* setup.c: @v's directories removed, its device given back. */
void vbd_remove_finish(struct vbd *v);

/*
 * request.c: a read or write (direct or indirect), a discard: checked,
 * mapped, its device requests in q->sub (the caller sets their done);
 * BLKIF_RSP_OKAY, or the status to answer with (nothing kept).  The
 * next pieces of a discard, as many as q->sub holds.  The segments'
 * grants released.
 */
int16_t vbd_prepare_rw(struct vbd_ring *r, struct vbd_req *q,
                       const struct blkif_req *req, bool write);
int16_t vbd_prepare_discard(struct vbd_ring *r, struct vbd_req *q,
                            const struct blkif_req *req);
void vbd_fill_discard(struct vbd_req *q);
void vbd_release_segs(struct vbd_req *q);
/* The segments request @req would map (0 for one refused anyway). */
unsigned int vbd_req_maps(const struct blkif_req *req);

/*
 * part.c: the partition @sel names in @dev's GPT, read and checked now
 * (at boot, waiting for the device); false, logged, if none.
 */
bool vbd_find_part(struct blk_dev *dev, const struct gpt_sel *sel,
                   struct gpt_part *p);

/*
 * ring.c: serve a ring (bounded: true if more is left), under its lock;
 * on its own CPU, but for the VM's end (drain.c).
 */
bool vbd_ring_work(struct vbd_ring *r);

/* drain.c: at the VM's end, finish and flush what the guest wrote. */
void blkback_drain(void);

/* dump.c: the 'b' debug key's part: each vbd, its rings, its device. */
void blkback_dump(void);

#endif /* BACKENDS_BLK_BLKBACK_H */
