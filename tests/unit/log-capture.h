/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk() into log_buf, for host tests that check what the code logs:
 * each call appends (cut off at the buffer's end); the test empties it
 * with log_buf[0] = '\0', log_len = 0.
 */
#ifndef TESTS_UNIT_LOG_CAPTURE_H
#define TESTS_UNIT_LOG_CAPTURE_H

#include <stdarg.h>
#include <stdio.h>

static char log_buf[16384];
static size_t log_len;

void printk(const char *fmt, ...)
{
    va_list args;
    int n;

    va_start(args, fmt);
    n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, args);
    va_end(args);
    if ( n > 0 )
        log_len = MIN(log_len + n, sizeof(log_buf) - 1);
}

#endif /* TESTS_UNIT_LOG_CAPTURE_H */
