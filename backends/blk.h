/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Xen block backend toward the rest of the shim: the guest's disks
 * (xvda, ...) over drivers/' block devices.  Internals:
 * backends/blk/blkback.h.
 */
#ifndef BACKENDS_BLK_H
#define BACKENDS_BLK_H

/* Once the guest is built: its vbds in xenstore, waiting for blkfront. */
void blkback_init(void);

/* BLKBACK_SOFTIRQ: handshakes to look at, rings to serve. */
void blkback_work(void);

/* The 'b' debug key: each vbd, its rings' indexes and counts, its device. */
void blkback_dump(void);

#endif /* BACKENDS_BLK_H */
