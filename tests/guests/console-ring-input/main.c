/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Console input through the ring, as a shell on hvc0 gets it: the guest
 * prints a prompt into its ring (so the shim routes serial input there),
 * then blocks in SCHEDOP_block until the console port wakes it with
 * input in in[]; it takes the bytes, notifies back (as hvc_xen does), and
 * echoes the line.  The boot tests type the line a moment after launch,
 * while the guest is blocked.  With no input it ends in SKIP after
 * "wait=SECONDS" on its command line (default 1).
 */
#include "guest.h"
#include "event.h"
#include "cons-ring.h"
#include "fuzz.h"

const char test_title[] = "Console ring input while blocked";

void test_main(void)
{
    struct xencons_interface *r = cons_ring();
    uint32_t port = start_info->console.domU.evtchn;
    unsigned int len = 0, n, blocks = 0, woken_with_input = 0;
    uint64_t deadline;
    char line[128];

    if ( !r )
        return test_error("console page not in the p2m");
    if ( event_init() )
        return test_error("event_init failed");
    if ( evtchn_bind_virq_on(VIRQ_TIMER, 0) < 0 )
        return test_error("VIRQ_TIMER not bound");
    cons_ring_put(r, "console-ring-input: waiting for a line\n");
    check_rc(cons_ring_notify(), 0);

    deadline = system_time() + cmdline_ulong("wait", 1) * 1000000000ULL;
    for ( ;; )
    {
        /*
         * Masked from here to SCHEDOP_block (which unmasks): input that
         * arrives after the check leaves the port pending, and the block
         * returns at once.  (Unmasked, its upcall would come and go
         * before the block, which would then sleep until the deadline.)
         */
        events_disable();
        if ( (n = cons_ring_get(r, line + len, sizeof(line) - 1 - len)) )
        {
            len += n;
            check_rc(cons_ring_notify(), 0);
        }
        if ( len && (line[len - 1] == '\n' || line[len - 1] == '\r') )
            break;
        if ( len == sizeof(line) - 1 || system_time() >= deadline )
            break;
        event_log_reset();
        check_rc(set_timer_op(deadline), 0);
        check_rc(hypercall_sched_op(SCHEDOP_block, NULL), 0);
        blocks++;
        if ( event_seen(port) && r->in_prod != r->in_cons )
            woken_with_input++;
    }
    check_rc(set_timer_op(0), 0);
    line[len] = '\0';
    while ( len && (line[len - 1] == '\n' || line[len - 1] == '\r') )
        line[--len] = '\0';
    if ( !len )
        return test_skip("no input arrived (%u block(s))", blocks);
    printf("console-ring-input: got \"%s\" after %u block(s), %u woken by "
           "input\n", line, blocks, woken_with_input);
    if ( blocks > 1 && !woken_with_input )
        test_fail("the guest blocked but input never woke it");
    test_success();
}
