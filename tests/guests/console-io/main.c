/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_console_io: writes, reads with no input, and the errors of
 * Xen's do_console_io() (drivers/char/console.c).
 */
#include "guest.h"

const char test_title[] = "console_io: write, read, and bad arguments";

static void test_write(void)
{
    static const char msg[] = "console_io: a line in one write\n";
    static char big[1024];
    size_t len = 0;
    unsigned int i;

    check_rc(hypercall_console_io(CONSOLEIO_write, sizeof(msg) - 1, msg), 0);

    /* Longer than Xen's 128-byte bounce buffer: written in pieces. */
    for ( i = 1; i <= 12; i++ )
        len += snprintf(big + len, sizeof(big) - len,
                        "console_io: line %2u of 12, all written by one "
                        "CONSOLEIO_write\n", i);
    check_rc(hypercall_console_io(CONSOLEIO_write, len, big), 0);

    /* Nothing to copy: the buffer is never touched. */
    check_rc(hypercall_console_io(CONSOLEIO_write, 0, NULL), 0);
    check_rc(hypercall_console_io(CONSOLEIO_write, 0, BAD_UNMAPPED), 0);
    check_rc(hypercall_console_io(CONSOLEIO_write, 0, BAD_NONCANONICAL), 0);
    check_rc(hypercall_console_io(CONSOLEIO_write, 0, BAD_XEN), 0);
}

static void test_write_bad(void)
{
    check_rc(hypercall_console_io(CONSOLEIO_write, 1, BAD_UNMAPPED),
             -XEN_EFAULT);
    check_rc(hypercall_console_io(CONSOLEIO_write, 1, BAD_NONCANONICAL),
             -XEN_EFAULT);
    check_rc(hypercall_console_io(CONSOLEIO_write, 16, BAD_XEN),
             -XEN_EFAULT);
    check_rc(hypercall_console_io(CONSOLEIO_write, 0x10000000, BAD_UNMAPPED),
             -XEN_EFAULT);
}

static void test_read(void)
{
    static char buf[64];
    long rc;

    check_rc(hypercall_console_io(CONSOLEIO_read, 0, buf), 0);

    /* Nobody types at a test: expect 0, accept what did arrive. */
    rc = hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf);
    if ( rc < 0 || rc > (long)sizeof(buf) )
        test_fail("CONSOLEIO_read(%zu): %ld", sizeof(buf), rc);
    else if ( rc > 0 )
        printf("CONSOLEIO_read: %ld bytes of input: \"%.*s\"\n",
               rc, (int)rc, buf);

    /* Counts that would not fit the non-negative return value. */
    check_rc(hypercall_console_io(CONSOLEIO_read, 0x80000000U, buf),
             -XEN_E2BIG);
    check_rc(hypercall_console_io(CONSOLEIO_read, ~0U, buf), -XEN_E2BIG);
}

void test_main(void)
{
    test_write();
    test_write_bad();
    test_read();

    check_rc(hypercall_console_io(2, 0, NULL), -XEN_ENOSYS);
    check_rc(hypercall_console_io(~0U, 0, NULL), -XEN_ENOSYS);

    test_success();
}
