/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Console input: what arrives on the shim's serial line reaches the guest
 * through CONSOLEIO_read.  The boot tests type a line into QEMU's serial
 * port; this kernel reads until the newline and echoes it.  (Booted with
 * no input, it ends in SKIP after a while.)
 */
#include "guest.h"

const char test_title[] = "console_io: reading serial input";

void test_main(void)
{
    char line[64], buf[16];
    unsigned int len = 0;
    unsigned long spins;
    long n, i;

    for ( spins = 0; spins < 2000000 && len < sizeof(line) - 1; spins++ )
    {
        n = hypercall_console_io(CONSOLEIO_read, sizeof(buf), buf);
        if ( n < 0 )
            return test_fail("CONSOLEIO_read: %ld", n);
        for ( i = 0; i < n && len < sizeof(line) - 1; i++ )
            line[len++] = buf[i];
        if ( len && (line[len - 1] == '\n' || line[len - 1] == '\r') )
            break;
        if ( !n )
            asm volatile ( "pause" );
    }
    line[len] = '\0';
    while ( len && (line[len - 1] == '\n' || line[len - 1] == '\r') )
        line[--len] = '\0';
    if ( !len )
        return test_skip("no input arrived");
    printf("console-echo: got \"%s\"\n", line);
    test_success();
}
