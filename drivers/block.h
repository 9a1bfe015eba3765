/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block-device interface between the container's disks (virtio-blk,
 * NVMe) and their users (the Xen block backend): a
 * registered device with its geometry, features, limits and queues, and
 * asynchronous requests over physical addresses, completed by a callback.
 */
#ifndef DRIVERS_BLOCK_H
#define DRIVERS_BLOCK_H

#include "shim/lib.h"
#include "arch/x86/layout.h"

struct pci_dev;

/* Sectors are 512 bytes in requests and capacities, whatever the device. */
#define BLK_SECTOR_SHIFT    9
#define BLK_SECTOR_SIZE     (1u << BLK_SECTOR_SHIFT)

enum blk_op {
    BLK_OP_READ,
    BLK_OP_WRITE,
    BLK_OP_FLUSH,           /* what was written so far, to stable storage */
    BLK_OP_DISCARD,         /* the device may forget those sectors */
    BLK_OP_WRITE_ZEROES,    /* the sectors read as zeroes afterwards */
};

/* A request's completion status. */
enum blk_status {
    BLK_OK,
    BLK_EIO,                /* the device failed it */
    BLK_EUNSUPP,            /* the device does not do that operation */
    BLK_EINVAL,             /* past the end, misaligned, too many segments */
    BLK_EBUSY,              /* the queue is full: submit again later */
    BLK_EROFS,              /* a write to a read-only device */
};

/* Device features (blk_dev.features). */
#define BLK_F_FLUSH         (1u << 0)   /* takes BLK_OP_FLUSH */
#define BLK_F_DISCARD       (1u << 1)
#define BLK_F_WRITE_ZEROES  (1u << 2)
#define BLK_F_RO            (1u << 3)

/* A piece of memory a request reads or writes: physical, not mapped. */
struct blk_seg {
    uint64_t addr;
    uint32_t len;           /* a multiple of 512 bytes */
};

struct blk_request {
    enum blk_op op;
    uint64_t sector;        /* first 512-byte sector */
    /* Read and write: the data, nr_segs pieces in order (the caller's). */
    unsigned int nr_segs;
    const struct blk_seg *seg;
    /* Discard and write-zeroes: how many sectors from @sector. */
    uint32_t nr_sectors;
    /*
     * Called once, on the CPU that takes the queue's interrupt, from its
     * softirq, with the result; the request is the caller's again then.
     */
    void (*done)(struct blk_request *req, enum blk_status status);
    void *data;             /* the caller's */
    /*
     * More requests follow at once on this queue: the device need not
     * be told of this one yet.  The caller ends the batch with
     * blk_kick_on().
     */
    bool more;
};

struct blk_dev;
struct blk_dev_ops {
    /* Queue @req on queue @q; BLK_OK once queued, else why not. */
    enum blk_status (*submit)(struct blk_dev *dev, unsigned int q,
                              struct blk_request *req);
    /* Tell the device of what queue @q was given with `more` set. */
    void (*kick)(struct blk_dev *dev, unsigned int q);
    /* Run the completions queue @q has (its interrupt said so). */
    void (*complete)(struct blk_dev *dev, unsigned int q);
    /* Print each queue's state (a debug key); racy reads, no locks. */
    void (*dump)(struct blk_dev *dev);
    /*
     * The device given back (blk_release(): nothing in flight): no more
     * requests, interrupts or DMA from it.  NULL: nothing to do.
     */
    void (*stop)(struct blk_dev *dev);
};

#define BLK_MAX_QUEUES      16
#define BLK_MAX_DEVS        26      /* xvda .. xvdz: the disks xl names */

struct blk_dev {
    char name[16];              /* "virtio-blk0" */
    uint64_t nr_sectors;        /* capacity, in 512-byte sectors */
    unsigned int sector_size;   /* logical block size: 512, 4096... */
    unsigned int phys_sector_size;  /* physical block: sector_size or more */
    unsigned int features;      /* BLK_F_* */
    unsigned int nr_queues;     /* 1..BLK_MAX_QUEUES */
    /* Limits a request must keep. */
    unsigned int max_segs;      /* segments in one read or write */
    uint32_t max_seg_size;      /* bytes in one segment */
    uint32_t max_sectors;       /* in one read or write; 0: no limit */
    /*
     * 0, or a power of two that every segment but the first starts on
     * and every segment but the last ends on (NVMe's PRPs: the page), so
     * the segments join into whole units with no gap.
     */
    uint32_t seg_boundary;
    uint32_t dma_align;         /* each segment's address: 0, or a multiple */
    uint32_t max_discard_sectors, max_write_zeroes_sectors;
    uint32_t discard_granularity;   /* sectors */
    const struct blk_dev_ops *ops;
    void *priv;
    struct pci_dev *pci;        /* its function: the host's removal's */
    bool removing;              /* the host takes it: its user gives it back */
    /*
     * Per CPU: the queues whose interrupts came there, not yet run.
     * Its own (NULL at blk_register()), or shared by the devices on the
     * same queues (an NVMe controller's namespaces): any one of them
     * still registered runs them all.
     */
    unsigned long *pending;
    unsigned long own_pending[NR_CPUS];
};

/* Add @dev to the registry, as the next index; false if full. */
bool blk_register(struct blk_dev *dev);
unsigned int blk_count(void);
struct blk_dev *blk_get(unsigned int index);

/*
 * Check @req against @dev (range, alignment, segments, features), then
 * queue it on the queue of the submitting CPU (its number modulo the
 * queues).  BLK_OK: @req->done will be called.  Anything else: it won't.
 */
enum blk_status blk_submit(struct blk_dev *dev, struct blk_request *req);
/* blk_submit() on the device's queue @q (mod its queues), wherever from. */
enum blk_status blk_submit_on(struct blk_dev *dev, unsigned int q,
                              struct blk_request *req);
/*
 * The device's capacity changed while it runs (virtio-blk's configuration
 * interrupt: QEMU's block_resize): @dev->nr_sectors becomes @nr_sectors
 * and the resize hook, if one is set, hears of it, from the interrupt
 * (so it may only note it and raise a softirq).  Requests checked from
 * then on are checked against the new size; one in flight past a new,
 * smaller end fails at the device.
 */
void blk_resized(struct blk_dev *dev, uint64_t nr_sectors);
/* The one listener to resizes (the block backend). */
void blk_set_resize_hook(void (*fn)(struct blk_dev *dev));
/*
 * The one listener to disks registered from then on (the block backend,
 * once it has taken those found at boot): @fn(@dev) runs from
 * blk_register(), on CPU 0 in the hotplug softirq (drivers/pci-hotplug.c).
 */
void blk_set_add_hook(void (*fn)(struct blk_dev *dev));
/*
 * The host takes function @d away (drivers/pci-hotplug.c): each disk on
 * it goes to the remove hook (the block backend), whose user gives it
 * back with blk_release() once nothing is in flight; a disk no hook
 * takes is given back at once.  blk_release(): out of the registry,
 * stopped, its function's hold dropped.  From CPU 0's softirqs.
 */
void blk_set_remove_hook(void (*fn)(struct blk_dev *dev));
void blk_remove_pci(struct pci_dev *d);
void blk_release(struct blk_dev *dev);
/* The end of a batch submitted with `more`: the device hears of it now. */
void blk_kick_on(struct blk_dev *dev, unsigned int q);
/* blk_submit()'s checks alone: could @dev take @req as it is? */
enum blk_status blk_check(const struct blk_dev *dev,
                          const struct blk_request *req);

/*
 * How many of the segments @seg[0..@nr), from the first, one read or
 * write may carry on @dev (its segment count, sizes, alignment, boundary
 * and transfer limits); 0 if not even the first alone.  For a caller
 * that splits a long list into requests the device takes.
 */
unsigned int blk_fit(const struct blk_dev *dev, const struct blk_seg *seg,
                     unsigned int nr);

/*
 * From a queue's interrupt: run its completions soon, from BLOCK_SOFTIRQ
 * on this CPU.
 */
void blk_queue_interrupt(struct blk_dev *dev, unsigned int q);

/*
 * Run every queue's completions of @dev here and now, whichever CPU
 * their interrupts go to: for a caller that waits for its requests
 * with no softirq to run them (the VM's power-off).
 */
void blk_poll(struct blk_dev *dev);

/* "ok", "I/O error"... */
const char *blk_status_name(enum blk_status s);

#endif /* DRIVERS_BLOCK_H */
