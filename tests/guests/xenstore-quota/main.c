/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xenstore quotas for a domU (xenstored's defaults): 1000 nodes, a 2 KiB
 * node record (ENOSPC), 128 watches (E2BIG), 10 transactions (ENOSPC),
 * and the store still serving afterwards.
 */
#include "guest.h"
#include "xs.h"

const char test_title[] = "xenstore: node, size, watch and transaction quotas";

static char reply[XENSTORE_PAYLOAD_MAX + 1];

static void nodes(void)
{
    char path[32];
    unsigned int i;
    const char *r = "";

    for ( i = 0; i < 1100; i++ )
    {
        snprintf(path, sizeof(path), "data/q%u/%u", i / 50, i);
        r = xs_write(0, path, "");
        if ( strcmp(r, "OK") )
            break;
    }
    if ( strcmp(r, "ENOSPC") || i < 900 || i > 1000 )
        test_fail("node quota: \"%s\" after %u nodes", r, i);
    for ( i = 0; i < 22; i++ )
    {
        snprintf(path, sizeof(path), "data/q%u", i);
        xs_req_str(XS_RM, 0, path);
    }
    if ( strcmp(xs_write(0, "data/after", "1"), "OK") )
        test_fail("no room after removing the nodes");
}

static void entry_size(void)
{
    static char big[2100];

    memset(big, 'x', 2047);
    if ( strcmp(xs_write(0, "data/big", big), "ENOSPC") )
        test_fail("a 2047-byte value accepted");
    big[1800] = '\0';
    if ( strcmp(xs_write(0, "data/big", big), "OK") )
        test_fail("an 1800-byte value refused");
    if ( strcmp(xs_req_str(XS_READ, 0, "data/big"), big) )
        test_fail("the 1800-byte value did not come back");
}

static void watches(void)
{
    char buf[32];
    unsigned int i, len;
    long t = 0;

    for ( i = 0; i < 200; i++ )
    {
        len = snprintf(buf, sizeof(buf), "data%cw%u", 0, i) + 1;
        t = xs_request(XS_WATCH, 0, buf, len, reply, NULL);
        if ( t != XS_WATCH )
            break;
    }
    if ( t != XS_ERROR || strcmp(reply, "E2BIG") || i != 129 )
        test_fail("watch quota: \"%s\" after %u watches", reply, i);
    if ( strcmp(xs_req_str(XS_RESET_WATCHES, 0, ""), "OK") )
        test_fail("RESET_WATCHES");
}

static void transactions(void)
{
    unsigned int i;
    long t = 0;

    for ( i = 0; i < 20; i++ )
        if ( (t = xs_request(XS_TRANSACTION_START, 0, "", 1, reply, NULL)) !=
             XS_TRANSACTION_START )
            break;
    if ( t != XS_ERROR || strcmp(reply, "ENOSPC") || i != 11 )
        test_fail("transaction quota: \"%s\" after %u", reply, i);
    xs_req_str(XS_RESET_WATCHES, 0, "");        /* ends them too */
    if ( xs_request(XS_TRANSACTION_START, 0, "", 1, reply, NULL) !=
         XS_TRANSACTION_START )
        test_fail("no transaction after RESET_WATCHES");
}

void test_main(void)
{
    if ( !xs_init() )
        return test_error("xenstore page not in the p2m");
    nodes();
    entry_size();
    watches();
    transactions();
    test_success();
}
