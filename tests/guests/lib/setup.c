/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Start-up from _start, the test's result, and the end of the VM: one
 * readable flow, as XTF's xtf_main().
 */
#include "guest.h"
#include "lib.h"

start_info_t *start_info;               /* written by _start */

enum result {
    RESULT_NONE,                        /* nothing reported yet */
    RESULT_SUCCESS,
    RESULT_SKIP,
    RESULT_ERROR,
    RESULT_FAILURE,
};

static const char *const result_names[] = {
    [RESULT_SUCCESS] = "SUCCESS",
    [RESULT_SKIP]    = "SKIP",
    [RESULT_ERROR]   = "ERROR",
    [RESULT_FAILURE] = "FAILURE",
};

static enum result result;

static void set_result(enum result r)
{
    if ( r > result )
        result = r;
}

static void report(enum result r, const char *what, const char *fmt,
                   va_list args)
{
    char line[256];

    set_result(r);
    vsnprintf(line, sizeof(line), fmt, args);
    printf("%s: %s\n", what, line);
}

void test_success(void)
{
    set_result(RESULT_SUCCESS);
}

#define REPORT(r, what) do {                                                \
    va_list args;                                                           \
                                                                            \
    va_start(args, fmt);                                                    \
    report(r, what, fmt, args);                                             \
    va_end(args);                                                           \
} while ( 0 )

void test_skip(const char *fmt, ...)
{
    REPORT(RESULT_SKIP, "Skip");
}

void test_error(const char *fmt, ...)
{
    REPORT(RESULT_ERROR, "Error");
}

void test_fail(const char *fmt, ...)
{
    REPORT(RESULT_FAILURE, "Failure");
}

/*
 * Every test ends here, whatever its result: status 0 from the VM, so that
 * a non-zero status always means the hypervisor ended the guest (or the
 * test asked for it, as shutdown-reboot does).
 */
void test_exit(void)
{
    static bool exiting;
    long rc;

    if ( !exiting )
    {
        exiting = true;
        if ( result == RESULT_NONE )
            test_error("test did not report a result");
        printf("Test result: %s\n", result_names[result]);
    }

    rc = hypercall_shutdown(SHUTDOWN_poweroff);
    printf("SCHEDOP_shutdown(poweroff) returned %ld\n", rc);
    for ( ;; )
        hypercall_sched_op(SCHEDOP_yield, NULL);
}

void start_guest(void)
{
    long rc;

    printf("Environment: " GUEST_ENV_NAME "\n");
    printf("%s\n", test_title);

    if ( !(&test_no_trap_table && test_no_trap_table) )
    {
        rc = trap_init();
        if ( rc )
        {
            test_error("set_trap_table: %ld", rc);
            test_exit();
        }
    }

    test_main();
    test_exit();
}
