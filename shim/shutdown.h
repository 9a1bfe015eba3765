/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Work to finish before the VM ends (shim/shutdown.c): e.g. the console
 * backend writing out what the guest left in its ring.  The domain's end
 * (pv/domain.c) runs the hooks without knowing whose they are.
 */
#ifndef SHIM_SHUTDOWN_H
#define SHIM_SHUTDOWN_H

#include "shim/lib.h"

/* At boot; a few at most (pass a function of the caller's own file). */
void shutdown_hook_register(void (*fn)(void));
/* Once, before the VM halts; later calls do nothing. */
void shutdown_hooks_run(void);

#endif /* SHIM_SHUTDOWN_H */
