/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmu-update again, with the shim told to preempt batched hypercalls
 * after every 7 entries (expect: hypercall-batch=7): each long batch is
 * then continued hundreds of times, and must end exactly as one
 * uninterrupted run does, *pdone included.
 */
#define TEST_TITLE "mmu_update: as mmu-update, preempted every 7 entries"
#include "../mmu-update/main.c"
