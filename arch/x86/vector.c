/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device vectors (vector.h): who owns each, as a table do_IRQ() reads.
 * Handed out on CPU 0 alone (at boot, and in the hotplug softirq for a
 * device the host adds), each handler published after its data, so the
 * table is read without a lock.  Never taken back: a removed device's
 * entries are masked and its vectors stay unused.
 */
#include "arch/x86/vector.h"

static struct {
    vector_handler_t *fn;
    void *data;
} vectors[DEVICE_VECTOR_LAST - DEVICE_VECTOR_FIRST + 1];
static unsigned int next_vector = DEVICE_VECTOR_FIRST;

unsigned int vector_alloc(vector_handler_t *fn, void *data)
{
    unsigned int v = next_vector;

    if ( v > DEVICE_VECTOR_LAST )
        return 0;
    vectors[v - DEVICE_VECTOR_FIRST].data = data;
    __atomic_store_n(&vectors[v - DEVICE_VECTOR_FIRST].fn, fn,
                     __ATOMIC_RELEASE);
    next_vector++;
    return v;
}

bool vector_dispatch(unsigned int vector)
{
    vector_handler_t *fn;

    if ( vector < DEVICE_VECTOR_FIRST || vector > DEVICE_VECTOR_LAST )
        return false;
    fn = __atomic_load_n(&vectors[vector - DEVICE_VECTOR_FIRST].fn,
                         __ATOMIC_ACQUIRE);
    if ( !fn )
        return false;
    fn(vectors[vector - DEVICE_VECTOR_FIRST].data);
    return true;
}
