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

/* For the 'b' debug key: the ring's state, one line. */
void xenstore_dump(void);

/* POWER_BUTTON_SOFTIRQ: "poweroff" to control/shutdown, as xl shutdown. */
void xenstore_power_button(void);

/*
 * Write @value to absolute @path as the toolstack, creating it as
 * needed and firing the guest's watches; 0 or a XEN_E* error number.
 */
int xs_shim_write(const char *path, const char *value);

/*
 * The shim as a backend's toolstack and xenstore client (domain 0, which
 * may read and write every node).  Paths are absolute; each returns 0
 * or a XEN_E* error number.
 *
 * xs_shim_read(): @path's value into @buf (nul-terminated; XEN_E2BIG if
 * it doesn't fit).  xs_shim_mkdir(): create @path (and its parents)
 * owned by domain @owner, readable by domain @reader, as libxl makes a
 * device's backend and frontend directories; nodes written below
 * inherit that.  xs_shim_rm(): remove @path and its subtree.
 */
int xs_shim_read(const char *path, char *buf, size_t size);
/*
 * @dir/@name as a decimal number (a frontend's ring-ref, port or state):
 * XEN_EINVAL if empty or not one, XEN_ERANGE if too big.
 */
int xs_shim_read_ulong(const char *dir, const char *name, unsigned long *out);
/* Write @dir/@name = printf(@fmt, ...), as xs_shim_write(). */
int __attribute__((format(printf, 3, 4)))
xs_shim_writef(const char *dir, const char *name, const char *fmt, ...);
int xs_shim_mkdir(const char *path, unsigned int owner, unsigned int reader);
int xs_shim_rm(const char *path);

/*
 * Watch @path and its subtree: @fn(@path, @data) runs soon after it
 * changes (once for many changes) and once after it is set, from the
 * xenstore backend's softirq or after the shim's own write, never in
 * the middle of a request; @fn must be static where it is registered
 * (the image is PIE).  XEN_ENOSPC when the shim's watches are all taken.
 */
#define XS_SHIM_WATCHES     40      /* backends.c: one a disk or NIC fits */
typedef void xs_shim_watch_fn(const char *path, void *data);
int xs_shim_watch(const char *path, xs_shim_watch_fn *fn, void *data);
void xs_shim_unwatch(const char *path, xs_shim_watch_fn *fn, void *data);

#endif /* BACKENDS_XENSTORE_H */
