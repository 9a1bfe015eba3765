/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine-to-physical table (pv/mm/m2p.c): the guest's pfn of every
 * machine frame, read-only to the guest at MACH2PHYS_VIRT_START, and for
 * a 32-bit guest a copy with 4-byte entries beside it.
 */
#ifndef PV_MM_M2P_H
#define PV_MM_M2P_H

#include "shim/lib.h"

unsigned long pv_m2p_pages(void);
/* Its set-up at boot, pv_m2p_init(), is in pv/pv.h. */
void pv_m2p_set(unsigned long mfn, unsigned long pfn);
/* M2P entries for @nr frames from @mfn up (@step 1) or down (-1). */
void pv_m2p_set_run(unsigned long mfn, unsigned long pfn, unsigned long nr,
                    long step);
unsigned long pv_m2p_get(unsigned long mfn);
/* A 32-bit guest's M2P, beside the native one from now on. */
void pv_m2p_compat_init(void);
unsigned int pv_m2p_compat_first_slot(void);
void pv_m2p_compat_fill_l2(uint64_t *l2);
unsigned long pv_m2p_compat_bytes(void);

#endif /* PV_MM_M2P_H */
