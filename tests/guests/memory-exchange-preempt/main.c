/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory-exchange again, with the shim told to preempt batched hypercalls
 * after every chunk (expect: hypercall-batch=1): each exchange continues
 * itself from nr_exchanged, chunk by chunk, and must end exactly as one
 * uninterrupted run does.
 */
#define TEST_TITLE "memory_op: XENMEM_exchange, preempted every chunk"
#include "../memory-exchange/main.c"
