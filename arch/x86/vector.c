/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device vectors (vector.h): who owns each, as a table do_IRQ() reads.
 * Handed out and taken back on CPU 0 alone (at boot, and in the hotplug
 * softirq and its timer for a device the host adds or took away), each
 * handler published after its data, so the table is read without a lock.
 * One given back goes first, the oldest first (a removed device's are
 * given back a second after it was quieted, so nothing of its is still
 * on its way: see pci-hotplug.c), then those never used.  Never
 * HYPERCALL_VECTOR, whose gate is the compat guest's `int $0x82`: a
 * device interrupt there would run the hypercall entry, which takes the
 * interrupted frame for a guest kernel's call (a guest's user process
 * could have its registers run as a kernel's hypercall).
 */
#include "arch/x86/desc.h"
#include "arch/x86/vector.h"

#define NR_DEVICE_VECTORS (DEVICE_VECTOR_LAST - DEVICE_VECTOR_FIRST + 1)

static struct {
    vector_handler_t *fn;
    void *data;
    unsigned long freed;                /* when given back: its turn */
} vectors[NR_DEVICE_VECTORS];
static unsigned int next_vector = DEVICE_VECTOR_FIRST;
static unsigned long nr_freed;

unsigned int vector_alloc(vector_handler_t *fn, void *data)
{
    unsigned int v, i;

    /* The one given back longest ago, else one never used. */
    for ( v = 0, i = 0; i < NR_DEVICE_VECTORS; i++ )
        if ( !vectors[i].fn && vectors[i].freed &&
             (!v || vectors[i].freed < vectors[v - 1].freed) )
            v = i + 1;
    if ( v )
        v += DEVICE_VECTOR_FIRST - 1;
    else
    {
        if ( next_vector == HYPERCALL_VECTOR )
            next_vector++;
        if ( (v = next_vector) > DEVICE_VECTOR_LAST )
            return 0;
        next_vector++;
    }
    vectors[v - DEVICE_VECTOR_FIRST].freed = 0;
    __atomic_store_n(&vectors[v - DEVICE_VECTOR_FIRST].data, data,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&vectors[v - DEVICE_VECTOR_FIRST].fn, fn,
                     __ATOMIC_RELEASE);
    return v;
}

void vector_free(unsigned int vector)
{
    unsigned int i = vector - DEVICE_VECTOR_FIRST;

    if ( vector < DEVICE_VECTOR_FIRST || vector > DEVICE_VECTOR_LAST ||
         !vectors[i].fn )
        return;
    __atomic_store_n(&vectors[i].fn, NULL, __ATOMIC_RELEASE);
    vectors[i].freed = ++nr_freed;
}

bool vector_dispatch(unsigned int vector)
{
    vector_handler_t *fn;
    void *data;

    if ( vector < DEVICE_VECTOR_FIRST || vector > DEVICE_VECTOR_LAST )
        return false;
    fn = __atomic_load_n(&vectors[vector - DEVICE_VECTOR_FIRST].fn,
                         __ATOMIC_ACQUIRE);
    if ( !fn )
        return false;
    data = __atomic_load_n(&vectors[vector - DEVICE_VECTOR_FIRST].data,
                           __ATOMIC_ACQUIRE);
    /*
     * Given back and handed out again between the two loads (a late
     * interrupt of a removed device): this data may not be @fn's.
     */
    if ( __atomic_load_n(&vectors[vector - DEVICE_VECTOR_FIRST].fn,
                         __ATOMIC_ACQUIRE) != fn )
        return false;
    fn(data);
    return true;
}
