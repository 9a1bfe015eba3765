/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's side of the console ring (cons-ring.h). */
#include "cons-ring.h"
#include <xen/event_channel.h>

struct xencons_interface *cons_ring(void)
{
    const unsigned long *p2m = (const void *)start_info->mfn_list;
    unsigned long pfn;

    for ( pfn = 0; pfn < start_info->nr_pages; pfn++ )
        if ( p2m[pfn] == start_info->console.domU.mfn )
            return (void *)(pfn << 12);
    return NULL;
}

void cons_ring_put(struct xencons_interface *r, const char *s)
{
    XENCONS_RING_IDX prod = r->out_prod;

    while ( *s )
        r->out[MASK_XENCONS_IDX(prod++, r->out)] = *s++;
    asm volatile ( "" ::: "memory" );
    r->out_prod = prod;
}

unsigned int cons_ring_get(struct xencons_interface *r, char *buf,
                           unsigned int max)
{
    XENCONS_RING_IDX cons = r->in_cons, prod = r->in_prod;
    unsigned int n = 0;

    asm volatile ( "" ::: "memory" );
    while ( cons != prod && n < max )
        buf[n++] = r->in[MASK_XENCONS_IDX(cons++, r->in)];
    asm volatile ( "" ::: "memory" );
    r->in_cons = cons;
    return n;
}

long cons_ring_notify(void)
{
    evtchn_send_t send = { .port = start_info->console.domU.evtchn };

    return HYPERCALL(__HYPERVISOR_event_channel_op, EVTCHNOP_send, &send,
                     0, 0, 0);
}
