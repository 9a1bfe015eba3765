/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's own backends toward the guest (console, xenstore): each owns
 * a ring protocol on a shared guest page and an event channel, reaches the
 * guest only through pv/'s interfaces, and runs from its softirq when the
 * guest notifies it.
 */
#ifndef BACKENDS_BACKENDS_H
#define BACKENDS_BACKENDS_H

#include "shim/lib.h"

/* Once the guest is built: register each backend's softirq. */
void backends_init(void);

/*
 * A backend's watch on its frontend's state (@fe/state), logged as
 * @who's (@name's) if it can't be set: that frontend is then not heard.
 */
void backend_watch_frontend(const char *who, const char *name,
                            const char *fe,
                            void (*fn)(const char *path, void *data),
                            void *data);
/*
 * A device the host took away, as libxl removes one: that watch
 * (@fn, @data) dropped, the frontend's @fe and backend's @be directories
 * removed.
 */
void backend_forget_frontend(const char *fe, const char *be,
                             void (*fn)(const char *path, void *data),
                             void *data);
/*
 * How long a frontend has to close when the host takes its device back
 * (backend-remove-timeout=, seconds; by default libxl's
 * LIBXL_DESTROY_TIMEOUT, 10), after which the device is removed anyway:
 * backend_remove_by() is that deadline from now, backend_remove_secs()
 * the seconds, for the log.  backend_remove_wake(): the block and
 * network backends' softirqs on CPU 0 by @when (some frontend's time is
 * up then).
 */
uint64_t backend_remove_by(void);
unsigned int backend_remove_secs(void);
void backend_remove_wake(uint64_t when);
/*
 * A removal's deadline @by: true if it has passed (the frontend is to be
 * closed anyway), else the softirqs woken by then.
 */
bool backend_remove_due(uint64_t by);

#endif /* BACKENDS_BACKENDS_H */
