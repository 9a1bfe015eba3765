/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore ring under real concurrency: a guest thread speaking the
 * ring as Linux's xenbus_comms.c does (xb_write() notifies only if it
 * finds its previous req_prod consumed once it has published the new
 * one; xb_read() only if it finds the ring it read full), with Linux's
 * barriers and no more (the index published by a plain store, the other
 * side's read by a plain load right after it, which x86 may let pass
 * the store), against the backend on another thread, run when notified
 * and when backend.c's re-look timer would run it.  Each request goes in
 * two writes (header, then payload) as Linux's vectors do.  A wake-up
 * lost on either side leaves the guest waiting for a reply for good: the
 * case fails on a request that gets no reply within seconds.
 * Probabilistic by nature: without the backend's second look at
 * req_prod (ring.c, read_message()) both cases stall within the first
 * few dozen requests, as a 4-vCPU Linux stalled in its boot; with it but
 * without the re-look, within some ten thousand (the guest's store still
 * in its store buffer as both sides look), as a 4-vCPU Linux's xenwatch
 * once waited for good on its blkfront's state write.
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include "tests/unit/unit.h"
#include "tests/unit/test-xenstore-harness.h"

#define REQUESTS        200000
/*
 * A reply this late is a lost wake-up.  Generous: make check runs other
 * jobs beside this one, and a thread may wait a while for a CPU.
 */
#define STALL_SECONDS   20
/* backend.c's re-look, shorter: the cases run hundreds of thousands. */
#define RELOOK_SECONDS  0.0001

static int backend_bell, guest_bell, stop;

static void ring(int *bell)
{
    __atomic_store_n(bell, 1, __ATOMIC_SEQ_CST);
}

static bool answer(int *bell)
{
    return __atomic_exchange_n(bell, 0, __ATOMIC_SEQ_CST);
}

/*
 * Each side waits for the other's bell: with a CPU each, at once; on a
 * loaded host, giving its CPU to whoever can use it, so the other side
 * runs sooner (pause would spin out the whole time slice).
 */
static void relax(void)
{
    sched_yield();
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The shim's side: XENSTORE_SOFTIRQ, whenever the guest notified, and
 * as backend.c's re-look timer runs it: a while after a run that moved
 * bytes or left the connection waiting on the guest.
 */
static void *backend(void *arg)
{
    bool notify, more, relook = false;
    double relook_at = 0;

    (void)arg;
    while ( !__atomic_load_n(&stop, __ATOMIC_SEQ_CST) )
    {
        if ( !answer(&backend_bell) && !(relook && now() >= relook_at) )
        {
            relax();
            continue;
        }
        do {
            more = xs_ring_run(&notify);
            if ( notify )
                ring(&guest_bell);
        } while ( more );
        relook = notify || xs_ring_waiting();
        relook_at = now() + RELOOK_SECONDS;
    }
    return NULL;
}

static XENSTORE_RING_IDX load_idx(XENSTORE_RING_IDX *p)
{
    return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

/* Wait for the backend's event (xb_waitq); false after a stall. */
static bool wait_event(double since)
{
    while ( !answer(&guest_bell) )
    {
        if ( now() - since > STALL_SECONDS )
            return false;
        relax();
    }
    return true;
}

/* Linux's xb_write(), waiting for room when the ring is full. */
static bool xb_write(const void *data, unsigned int len)
{
    const char *p = data;
    XENSTORE_RING_IDX prod, cons;
    double since = now();
    unsigned int n;

    while ( len )
    {
        cons = load_idx(&xs_page.req_cons);
        prod = xs_page.req_prod;
        if ( prod - cons == XENSTORE_RING_SIZE )
        {
            if ( !wait_event(since) )
                return false;
            continue;
        }
        for ( n = 0; len && prod + n - cons < XENSTORE_RING_SIZE; n++, len-- )
            xs_page.req[MASK_XENSTORE_IDX(prod + n)] = *p++;
        __atomic_store_n(&xs_page.req_prod, prod + n, __ATOMIC_RELEASE);
        if ( prod <= __atomic_load_n(&xs_page.req_cons, __ATOMIC_ACQUIRE) )
            ring(&backend_bell);
        since = now();
    }
    return true;
}

/*
 * Linux's xb_read() for one whole reply, waiting for the event between
 * tries as the xenbus thread sleeps on xb_waitq; false after a stall.
 */
static bool xb_read_reply(struct xsd_sockmsg *m, char *body)
{
    double since = now();
    unsigned int got = 0, want = sizeof(*m);
    char buf[sizeof(*m) + XENSTORE_PAYLOAD_MAX];
    XENSTORE_RING_IDX start, cons, prod;

    while ( got < want )
    {
        start = cons = xs_page.rsp_cons;
        prod = load_idx(&xs_page.rsp_prod);
        if ( cons == prod )
        {
            if ( !wait_event(since) )
                return false;
            continue;
        }
        while ( cons != prod && got < want )
        {
            buf[got++] = xs_page.rsp[MASK_XENSTORE_IDX(cons++)];
            if ( got == sizeof(*m) )
                want += ((struct xsd_sockmsg *)buf)->len;
        }
        __atomic_store_n(&xs_page.rsp_cons, cons, __ATOMIC_RELEASE);
        if ( __atomic_load_n(&xs_page.rsp_prod, __ATOMIC_ACQUIRE) - start >=
             XENSTORE_RING_SIZE )
            ring(&backend_bell);
        since = now();
    }
    memcpy(m, buf, sizeof(*m));
    memcpy(body, buf + sizeof(*m), m->len);
    body[m->len] = '\0';
    return true;
}

/* One request in two writes, as Linux's vectors; its reply, or false. */
static bool request(uint32_t type, uint32_t id, const void *a,
                    unsigned int alen, const void *b, unsigned int blen,
                    struct xsd_sockmsg *m, char *body)
{
    struct xsd_sockmsg hdr = { type, id, 0, alen + blen };

    if ( xb_write(&hdr, sizeof(hdr)) && xb_write(a, alen) &&
         xb_write(b, blen) && xb_read_reply(m, body) )
        return true;
    printf("FAIL: %s: request %u: stalled %d s (ring req %u/%u rsp %u/%u)\n",
           unit_case_name, id, STALL_SECONDS, xs_page.req_cons,
           xs_page.req_prod, xs_page.rsp_cons, xs_page.rsp_prod);
    unit_case_failed = 1;
    return false;
}

static void race(unsigned int nr, unsigned int value_len)
{
    static const char path[] = "data/race";
    static char value[XENSTORE_PAYLOAD_MAX], body[XENSTORE_PAYLOAD_MAX + 1];
    struct xsd_sockmsg m;
    pthread_t t;
    unsigned int i;

    xs_harness_reset();
    __atomic_store_n(&stop, 0, __ATOMIC_SEQ_CST);
    memset(value, 'v', value_len);
    CHECK_EQ(pthread_create(&t, NULL, backend, NULL), 0);
    for ( i = 0; i < nr; i++ )
    {
        if ( value_len )
        {
            /* A request and a reply bigger than the ring, each way. */
            value[0] = 'a' + i % 26;
            if ( !request(XS_WRITE, 2 * i + 1, path, sizeof(path), value,
                          value_len, &m, body) )
                break;
            if ( m.type != XS_WRITE )
            {
                printf("FAIL: %s: write %u: %s\n", unit_case_name, i, body);
                unit_case_failed = 1;
                break;
            }
            if ( !request(XS_READ, 2 * i + 2, path, sizeof(path), NULL, 0,
                          &m, body) )
                break;
            CHECK_EQ(m.type, XS_READ);
            CHECK_EQ(m.len, value_len);
            CHECK(!memcmp(body, value, value_len));
            continue;
        }
        if ( !request(XS_READ, i + 1, path, sizeof(path), NULL, 0, &m, body) )
            break;
        CHECK_EQ(m.req_id, i + 1);
        CHECK_EQ(m.type, XS_ERROR);     /* ENOENT: no such node */
    }
    __atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
    pthread_join(t, NULL);
}

/* Small requests: the request ring's lost wake-up. */
static void test_request_ring(void)
{
    race(200000, 0);
}

/* Requests and replies of 2000 bytes (xenstored's node quota): both
 * rings, 1 KiB each, fill and wrap. */
static void test_full_rings(void)
{
    race(20000, 2000);
}

int main(void)
{
    RUN(test_request_ring);
    RUN(test_full_rings);
    UNIT_EXIT();
}
