/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xenstore through the real ring: the nodes a domU starts with, write,
 * read, mkdir, rm, directory, permissions as an unprivileged domain, and
 * the errors xenstored sends as strings.
 */
#include "guest.h"
#include "xs.h"

const char test_title[] = "xenstore: seeded nodes, requests, permissions";

static void expect(const char *what, const char *got, const char *want)
{
    if ( strcmp(got, want) )
        test_fail("%s: got \"%s\", expected \"%s\"", what, got, want);
}

#define EXPECT(call, want) expect(#call, call, want)

static void seeded(void)
{
    char want[32];

    EXPECT(xs_req_str(XS_READ, 0, "domid"), "1");
    EXPECT(xs_req_str(XS_READ, 0, "/local/domain/1/domid"), "1");
    snprintf(want, sizeof(want), "%lu", start_info->nr_pages * 4);
    EXPECT(xs_req_str(XS_READ, 0, "memory/target"), want);
    EXPECT(xs_req_str(XS_READ, 0, "cpu/0/availability"), "online");
    EXPECT(xs_req_str(XS_READ, 0,
                      "control/platform-feature-multiprocessor-suspend"), "1");
    EXPECT(xs_req_str(XS_READ, 0, "control/platform-feature-xs_reset_watches"),
           "1");
    EXPECT(xs_req_str(XS_READ, 0, "control/shutdown"), "");
    snprintf(want, sizeof(want), "%lu", start_info->store_mfn);
    EXPECT(xs_req_str(XS_READ, 0, "store/ring-ref"), want);
    snprintf(want, sizeof(want), "%u", start_info->store_evtchn);
    EXPECT(xs_req_str(XS_READ, 0, "store/port"), want);
    EXPECT(xs_req_str(XS_DIRECTORY, 0, "device"), "");
    EXPECT(xs_req_str(XS_GET_DOMAIN_PATH, 0, "1"), "/local/domain/1");
}

static void read_write(void)
{
    char reply[XENSTORE_PAYLOAD_MAX + 1];
    unsigned int len;

    EXPECT(xs_write(0, "data/greeting", "hello"), "OK");
    EXPECT(xs_req_str(XS_READ, 0, "data/greeting"), "hello");
    EXPECT(xs_write(0, "data/a/b/c", "deep"), "OK");
    EXPECT(xs_req_str(XS_READ, 0, "data/a/b"), "");
    EXPECT(xs_req_str(XS_MKDIR, 0, "data/dir"), "OK");
    EXPECT(xs_req_str(XS_MKDIR, 0, "data/dir"), "OK");
    check_rc(xs_request(XS_DIRECTORY, 0, "data", 5, reply, &len),
             XS_DIRECTORY);
    check_rc(len, sizeof("greeting\0a\0dir"));
    if ( memcmp(reply, "greeting\0a\0dir", len) )
        test_fail("DIRECTORY data: wrong children");
    EXPECT(xs_req_str(XS_RM, 0, "data/a"), "OK");
    EXPECT(xs_req_str(XS_READ, 0, "data/a/b/c"), "ENOENT");
    EXPECT(xs_req_str(XS_RM, 0, "data/a"), "OK");
    EXPECT(xs_req_str(XS_RM, 0, "data/a/b"), "ENOENT");
    EXPECT(xs_write(0, "control/shutdown", ""), "OK");
}

static void permissions(void)
{
    char reply[XENSTORE_PAYLOAD_MAX + 1];
    unsigned int len;

    EXPECT(xs_write(0, "name", "evil"), "EACCES");
    EXPECT(xs_write(0, "newnode", "x"), "EACCES");
    EXPECT(xs_req_str(XS_RM, 0, "domid"), "EACCES");
    EXPECT(xs_req_str(XS_READ, 0, "/local/domain/0/name"), "EACCES");
    EXPECT(xs_req_str(XS_DIRECTORY, 0, "/"), "EACCES");
    check_rc(xs_request(XS_GET_PERMS, 0, "domid", 6, reply, &len),
             XS_GET_PERMS);
    if ( len != 6 || memcmp(reply, "n0\0r1\0", 6) )
        test_fail("GET_PERMS domid: not n0 r1");
    check_rc(xs_request(XS_SET_PERMS, 0, "data\0n1\0r0", 11, reply, NULL),
             XS_SET_PERMS);
    check_rc(xs_request(XS_SET_PERMS, 0, "data\0n0", 8, reply, NULL),
             XS_ERROR);
    expect("SET_PERMS owner change", reply, "EPERM");
    check_rc(xs_request(XS_SET_PERMS, 0, "name\0n1", 8, reply, NULL),
             XS_ERROR);
    expect("SET_PERMS not ours", reply, "EACCES");
}

static void errors(void)
{
    char reply[XENSTORE_PAYLOAD_MAX + 1];

    EXPECT(xs_req_str(XS_CONTROL, 0, "print"), "EACCES");
    EXPECT(xs_req_str(XS_INTRODUCE, 0, "2"), "EACCES");
    EXPECT(xs_req_str(XS_RELEASE, 0, "1"), "EACCES");
    EXPECT(xs_req_str(XS_SET_TARGET, 0, "1"), "EACCES");
    EXPECT(xs_req_str(XS_READ, 0, "bad//path"), "EINVAL");
    EXPECT(xs_req_str(XS_READ, 5, "domid"), "ENOENT");
    EXPECT(xs_req_str(100, 0, "x"), "EINVAL");
    check_rc(xs_request(XS_READ, 0, "domid", 5, reply, NULL), XS_ERROR);
    expect("READ without a nul", reply, "EINVAL");
}

void test_main(void)
{
    if ( !xs_init() )
        return test_error("xenstore page not in the p2m");
    seeded();
    read_write();
    permissions();
    errors();
    test_success();
}
