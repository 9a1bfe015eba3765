/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory-increase again, with the shim told to preempt batched hypercalls
 * after every extent (expect: hypercall-batch=1): each list, the decrease
 * that gives the frames back included, is continued extent by extent and
 * must end exactly as one uninterrupted run does.
 */
#define TEST_TITLE "memory_op: as memory-increase, preempted every extent"
#include "../memory-increase/main.c"
