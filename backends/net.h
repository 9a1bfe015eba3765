/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Xen network backend toward the rest of the shim: the guest's vifs
 * over drivers/' network devices.  Internals: backends/net/netback.h.
 */
#ifndef BACKENDS_NET_H
#define BACKENDS_NET_H

/* Once the guest is built: its vifs in xenstore, waiting for netfront. */
void netback_init(void);

/* NETBACK_SOFTIRQ: handshakes to look at, TX rings to serve. */
void netback_work(void);

/* The 'b' debug key: each vif, its queues' indexes and counts, its device. */
void netback_dump(void);

#endif /* BACKENDS_NET_H */
