/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside pv/mm/: what one part of the MMU calls in another and nothing
 * outside it may.
 */
#ifndef PV_MM_PRIVATE_H
#define PV_MM_PRIVATE_H

struct memmap;

/* pv/mm/frame-table.c: allocate the table, every frame not RAM I/O. */
void frame_table_init(const struct memmap *m);

#endif /* PV_MM_PRIVATE_H */
