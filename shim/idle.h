/* SPDX-License-Identifier: GPL-2.0-only */
/* What a CPU does when it has nothing to run (shim/idle.c). */
#ifndef SHIM_IDLE_H
#define SHIM_IDLE_H

#include "shim/lib.h"

/* This CPU's softirqs, then halt until an interrupt; forever. */
noreturn void idle_loop(void);

/* Instead of the bare softirqs, from now on: @fn (which may not return). */
void idle_set_work(void (*fn)(void));

#endif /* SHIM_IDLE_H */
