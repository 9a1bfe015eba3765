/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore backend on the host: every file of backends/xenstore/ but
 * the shim glue, a ring page in ordinary memory, and helpers that send a
 * request through the ring and collect the reply and the watch events.
 * Shared by the unit tests and the fuzz target.
 */
#ifndef TESTS_UNIT_XENSTORE_HARNESS_H
#define TESTS_UNIT_XENSTORE_HARNESS_H

#include <stdio.h>
#include <string.h>
#include "backends/xenstore/arena.c"
#include "backends/xenstore/store.c"
#include "backends/xenstore/store-ops.c"
#include "backends/xenstore/watch.c"
#include "backends/xenstore/transaction.c"
#include "backends/xenstore/protocol.c"
#include "backends/xenstore/dispatch.c"
#include "backends/xenstore/ring.c"
#include "backends/xenstore/seed.c"
#include "shim/lib/strtoull.c"

size_t strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if ( size )
    {
        size_t n = len < size - 1 ? len : size - 1;

        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

static struct xenstore_domain_interface xs_page;
static char xs_rx[sizeof(struct xsd_sockmsg) + XENSTORE_PAYLOAD_MAX];
static unsigned int xs_rx_used;

#define SEED_PAGES 32768ul

static void xs_harness_reset(void)
{
    struct xs_seed_info info = {
        .nr_pages = SEED_PAGES, .store_mfn = 0x1234, .console_mfn = 0x1235,
        .vcpus = 2, .store_port = 1, .console_port = 2,
        .name = "guest", .uuid = "00000000-0000-0000-0000-000000000001",
    };

    xs_conn_reset();
    xs_tree_free(&xs_main_tree);
    xs_arena_reset();
    memset(&xs_page, 0, sizeof(xs_page));
    xs_ring_attach(&xs_page);
    xs_seed(&info);
    dropped_events = 0;
    xs_rx_used = 0;
}

static inline unsigned int xs_run(void)
{
    bool notify;
    unsigned int runs = 1;

    while ( xs_ring_run(&notify) )
        runs++;
    return runs;
}

/* Put raw bytes on the request ring, letting the backend make room. */
static inline void xs_put(const void *data, unsigned int len)
{
    const char *p = data;

    while ( len-- )
    {
        if ( xs_page.req_prod - xs_page.req_cons == XENSTORE_RING_SIZE )
            xs_run();
        xs_page.req[MASK_XENSTORE_IDX(xs_page.req_prod)] = *p++;
        xs_page.req_prod++;
    }
}

/*
 * Take one message off the response ring as a guest does, consuming what
 * is there (a message may be longer than the ring); false if none is
 * whole yet.
 */

static inline bool xs_get_msg(struct xsd_sockmsg *hdr, char *body)
{
    unsigned int want;

    for ( ;; )
    {
        want = sizeof(*hdr);
        if ( xs_rx_used >= sizeof(*hdr) )
        {
            want += ((struct xsd_sockmsg *)xs_rx)->len;
            if ( want > sizeof(xs_rx) )
            {
                xs_rx_used = 0;         /* framing lost (fuzzer only) */
                return false;
            }
            if ( xs_rx_used == want )
                break;
        }
        /* Nothing there, or a consumer index the fuzzer scribbled on. */
        if ( xs_page.rsp_prod - xs_page.rsp_cons - 1 >= XENSTORE_RING_SIZE )
            return false;
        xs_rx[xs_rx_used++] =
            xs_page.rsp[MASK_XENSTORE_IDX(xs_page.rsp_cons)];
        xs_page.rsp_cons++;
    }
    memcpy(hdr, xs_rx, sizeof(*hdr));
    memcpy(body, xs_rx + sizeof(*hdr), hdr->len);
    body[hdr->len] = '\0';
    xs_rx_used = 0;
    return true;
}

#endif /* TESTS_UNIT_XENSTORE_HARNESS_H */
