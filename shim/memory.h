/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot-time memory set-up (shim/memory.c). */
#ifndef SHIM_MEMORY_H
#define SHIM_MEMORY_H

#include "shim/boot-info.h"

/* Sanitise bi's map into *m, reserve what's in use, start the allocator. */
void memory_init(struct boot_info *bi, struct memmap *m);
/*
 * A page of RAM below 1 MiB (the highest) that memory_init() set aside
 * with the low 1 MiB, for the APs' real-mode trampoline; 0 if none.
 */
extern uint64_t trampoline_page;

void memmap_print(const char *title, const struct memmap *m);

#endif /* SHIM_MEMORY_H */
