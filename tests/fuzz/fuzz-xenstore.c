/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the xenstore backend (backends/xenstore/): the
 * input is a script of guest actions on the ring page (put bytes, kick
 * the backend, read replies, scribble on the indexes, ask to reconnect).
 * Whatever the guest does, the backend answers with well-formed
 * messages, never overruns the ring, and gives back every arena byte.
 */
#include <stdlib.h>
#include "tests/unit/test-xenstore-harness.h"

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "fuzz-xenstore: %s:%d: %s\n", __FILE__, __LINE__,  \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

static char body[XENSTORE_PAYLOAD_MAX + 1];
static bool scribbled;          /* the guest lost the framing itself */

static void drain(unsigned int max)
{
    struct xsd_sockmsg hdr;

    while ( max-- && xs_get_msg(&hdr, body) )
    {
        FUZZ_ASSERT(scribbled || hdr.len <= XENSTORE_PAYLOAD_MAX);
        FUZZ_ASSERT(scribbled || hdr.type < XS_TYPE_COUNT);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t i = 0;
    unsigned int n, room;
    XENSTORE_RING_IDX prod;
    bool notify;

    xs_harness_reset();
    scribbled = false;
    while ( i < size )
    {
        uint8_t op = data[i++];

        switch ( op & 7 )
        {
        case 0: case 1: case 2: case 3:     /* put (op >> 1) + 1 bytes */
            n = MIN((size_t)(op >> 1) + 1, size - i);
            room = XENSTORE_RING_SIZE - (xs_page.req_prod - xs_page.req_cons);
            n = MIN(n, room);
            while ( n-- )
                xs_page.req[MASK_XENSTORE_IDX(xs_page.req_prod++)] =
                    data[i++];
            break;
        case 4:
            prod = xs_page.rsp_prod;
            xs_ring_run(&notify);
            /* Whatever the guest did to rsp_cons, we never overrun it. */
            FUZZ_ASSERT(xs_page.rsp_prod == prod ||
                        xs_page.rsp_prod - xs_page.rsp_cons <=
                        XENSTORE_RING_SIZE);
            break;
        case 5:
            drain(op >> 3);
            break;
        case 6:                             /* a hostile index */
            if ( op & 8 )
                xs_page.req_prod += op;
            else
            {
                xs_page.rsp_cons += op >> 4;
                scribbled = true;
            }
            break;
        case 7:
            xs_page.connection = XENSTORE_RECONNECT;
            scribbled = true;
            break;
        }
    }
    xs_run();
    drain(~0u);
    /* Everything the guest made the store hold goes back. */
    xs_conn_reset();
    xs_tree_free(&xs_main_tree);
    FUZZ_ASSERT(xs_arena_used() == 0);
    return 0;
}
