/* SPDX-License-Identifier: GPL-2.0-only */
/* Console output through HYPERVISOR_console_io(CONSOLEIO_write). */
#include "guest.h"
#include "lib.h"

void console_write(const char *buf, size_t len)
{
    hypercall_console_io(CONSOLEIO_write, len, buf);
}

int vprintf(const char *fmt, va_list args)
{
    char buf[512];
    int len = vsnprintf(buf, sizeof(buf), fmt, args);

    if ( len > (int)sizeof(buf) - 1 )
        len = sizeof(buf) - 1;          /* truncated */
    console_write(buf, len);

    return len;
}

int printf(const char *fmt, ...)
{
    va_list args;
    int len;

    va_start(args, fmt);
    len = vprintf(fmt, args);
    va_end(args);

    return len;
}
