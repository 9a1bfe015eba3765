/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * flush-race with the shim's lock-free cross-CPU flush (no-flush-lock in
 * expect): the same guest, the other design under it.
 */
#include "../flush-race/main.c"
