/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore backend toward the rest of the shim: the store the guest
 * reaches on start_info.store_mfn / store_evtchn, with the shim as the
 * toolstack ("domain 0").  Internals: backends/xenstore/xs.h.
 */
#ifndef BACKENDS_XENSTORE_H
#define BACKENDS_XENSTORE_H

#include "shim/lib.h"

/* Once the guest is built: seed the store and attach to its ring page. */
void xenstore_init(void);

/* XENSTORE_SOFTIRQ: serve the ring (bounded; re-raised if more waits). */
void xenstore_ring_work(void);

/* POWER_BUTTON_SOFTIRQ: "poweroff" to control/shutdown, as xl shutdown. */
void xenstore_power_button(void);

/*
 * Write @value to absolute @path as the toolstack, creating it as
 * needed and firing the guest's watches; 0 or a XEN_E* error number.
 */
int xs_shim_write(const char *path, const char *value);

#endif /* BACKENDS_XENSTORE_H */
