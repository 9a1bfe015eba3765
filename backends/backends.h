/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's own backends toward the guest (console, xenstore): each owns
 * a ring protocol on a shared guest page and an event channel, reaches the
 * guest only through pv/'s interfaces, and runs from its softirq when the
 * guest notifies it.
 */
#ifndef BACKENDS_BACKENDS_H
#define BACKENDS_BACKENDS_H

/* Once the guest is built: register each backend's softirq. */
void backends_init(void);

#endif /* BACKENDS_BACKENDS_H */
