/* SPDX-License-Identifier: GPL-2.0-only */
/* A small xenstore client for test kernels (xs.h). */
#include "xs.h"
#include "event.h"
#include "hypercall.h"
#include <xen/event_channel.h>

#define ACCESS_ONCE(x) (*(volatile typeof(x) *)&(x))

struct xenstore_domain_interface *xs_intf;
unsigned int xs_nr_events;
char xs_events[XS_EVENTS_MAX][128];
static uint32_t next_req_id = 1;

bool xs_init(void)
{
    const unsigned long *p2m = (const void *)start_info->mfn_list;
    unsigned long pfn;

    for ( pfn = 0; pfn < start_info->nr_pages; pfn++ )
        if ( p2m[pfn] == start_info->store_mfn )
        {
            xs_intf = (void *)(pfn << 12);
            return true;
        }
    return false;
}

void xs_kick(void)
{
    evtchn_send_t send = { .port = start_info->store_evtchn };

    HYPERCALL(__HYPERVISOR_event_channel_op, EVTCHNOP_send, &send, 0, 0, 0);
}

void xs_put_raw(const void *data, unsigned int len)
{
    const char *p = data;
    unsigned int spins = 0;

    while ( len )
    {
        XENSTORE_RING_IDX prod = xs_intf->req_prod;

        if ( prod - ACCESS_ONCE(xs_intf->req_cons) == XENSTORE_RING_SIZE )
        {
            xs_kick();
            hypercall_sched_op(SCHEDOP_yield, NULL);
            if ( ++spins > 100000 )
                return;
            continue;
        }
        xs_intf->req[MASK_XENSTORE_IDX(prod)] = *p++;
        asm volatile ( "" ::: "memory" );
        xs_intf->req_prod = prod + 1;
        len--;
    }
    xs_kick();
}

/* Read one byte of the response stream, waiting up to a while. */
static bool get_byte(char *c)
{
    unsigned int spins;

    for ( spins = 0; spins < 10000; spins++ )
    {
        XENSTORE_RING_IDX cons = xs_intf->rsp_cons;

        if ( ACCESS_ONCE(xs_intf->rsp_prod) != cons )
        {
            asm volatile ( "" ::: "memory" );
            *c = xs_intf->rsp[MASK_XENSTORE_IDX(cons)];
            asm volatile ( "" ::: "memory" );
            xs_intf->rsp_cons = cons + 1;
            return true;
        }
        xs_kick();                      /* room for what waits */
        hypercall_sched_op(SCHEDOP_yield, NULL);
    }
    return false;
}

static bool get_msg(struct xsd_sockmsg *hdr, char *body)
{
    unsigned int i;

    for ( i = 0; i < sizeof(*hdr); i++ )
        if ( !get_byte((char *)hdr + i) )
            return false;
    if ( hdr->len > XENSTORE_PAYLOAD_MAX )
        return false;
    for ( i = 0; i < hdr->len; i++ )
        if ( !get_byte(body + i) )
            return false;
    body[hdr->len] = '\0';
    return true;
}

static void note_event(const char *body)
{
    if ( xs_nr_events < XS_EVENTS_MAX )
        snprintf(xs_events[xs_nr_events++], sizeof(xs_events[0]), "%s|%s",
                 body, body + strlen(body) + 1);
}

long xs_reply(struct xsd_sockmsg *hdr, char *body)
{
    while ( get_msg(hdr, body) )
    {
        if ( hdr->type != XS_WATCH_EVENT )
            return hdr->type;
        note_event(body);
    }
    return -1;
}

long xs_request(uint32_t type, uint32_t tx, const void *body,
                unsigned int len, char *reply, unsigned int *rlen)
{
    struct xsd_sockmsg hdr = { type, next_req_id++, tx, len }, r;
    long t;

    xs_put_raw(&hdr, sizeof(hdr));
    xs_put_raw(body, len);
    t = xs_reply(&r, reply);
    if ( t >= 0 && r.req_id != hdr.req_id )
        test_fail("xenstore: reply to request %u, expected %u",
                  r.req_id, hdr.req_id);
    if ( rlen )
        *rlen = t >= 0 ? r.len : 0;
    return t;
}

static char reply[XENSTORE_PAYLOAD_MAX + 1];

const char *xs_req_str(uint32_t type, uint32_t tx, const char *arg)
{
    if ( xs_request(type, tx, arg, strlen(arg) + 1, reply, NULL) < 0 )
        return "(no reply)";
    return reply;
}

const char *xs_write(uint32_t tx, const char *path, const char *value)
{
    static char buf[XENSTORE_PAYLOAD_MAX];
    unsigned int pl = strlen(path) + 1, vl = strlen(value);

    if ( pl + vl > sizeof(buf) )
        return "(too long)";
    memcpy(buf, path, pl);
    memcpy(buf + pl, value, vl);
    if ( xs_request(XS_WRITE, tx, buf, pl + vl, reply, NULL) < 0 )
        return "(no reply)";
    return reply;
}

const char *xs_read_str(const char *path)
{
    static char copy[XENSTORE_PAYLOAD_MAX + 1];
    const char *r = xs_req_str(XS_READ, 0, path);
    size_t n = strlen(r);

    memcpy(copy, r, n < sizeof(copy) ? n + 1 : sizeof(copy));
    copy[sizeof(copy) - 1] = '\0';
    return copy;
}

bool xs_wait_value(const char *path, const char *want, unsigned int seconds)
{
    uint64_t start = system_time();

    do {
        if ( !strcmp(xs_read_str(path), want) )
            return true;
        hypercall_sched_op(SCHEDOP_yield, NULL);
    } while ( system_time() - start < seconds * 1000000000ULL );
    return false;
}

bool xs_event_seen(const char *path_token)
{
    unsigned int i;

    for ( i = 0; i < xs_nr_events; i++ )
        if ( !strcmp(xs_events[i], path_token) )
            return true;
    return false;
}

bool xs_wait_events(unsigned int n)
{
    struct xsd_sockmsg hdr;
    static char body[XENSTORE_PAYLOAD_MAX + 1];

    while ( xs_nr_events < n )
    {
        if ( !get_msg(&hdr, body) )
            return false;
        if ( hdr.type == XS_WATCH_EVENT )
            note_event(body);
    }
    return true;
}
