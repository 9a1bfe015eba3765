/* SPDX-License-Identifier: GPL-2.0-only */
/* The few string functions the library and tests use (gcc may call mem*). */
#include "guest.h"

void *memset(void *s, int c, size_t n)
{
    unsigned char *p = s;

    while ( n-- )
        *p++ = c;

    return s;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    while ( n-- )
        *d++ = *s++;

    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    for ( ; n; n--, p++, q++ )
        if ( *p != *q )
            return *p - *q;

    return 0;
}

size_t strlen(const char *s)
{
    const char *p = s;

    while ( *p )
        p++;

    return p - s;
}

size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;

    while ( n < max && s[n] )
        n++;

    return n;
}

int strcmp(const char *a, const char *b)
{
    return strncmp(a, b, ~(size_t)0);
}

int strncmp(const char *a, const char *b, size_t n)
{
    for ( ; n; n--, a++, b++ )
        if ( *a != *b || !*a )
            return (unsigned char)*a - (unsigned char)*b;

    return 0;
}

char *strstr(const char *haystack, const char *needle)
{
    size_t len = strlen(needle);

    for ( ; *haystack; haystack++ )
        if ( !strncmp(haystack, needle, len) )
            return (char *)haystack;

    return len ? NULL : (char *)haystack;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    unsigned long n = 0;
    unsigned int d;

    for ( ; ; s++ )
    {
        if ( *s >= '0' && *s <= '9' )
            d = *s - '0';
        else if ( base == 16 && (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' )
            d = (*s | 0x20) - 'a' + 10;
        else
            break;
        n = n * base + d;
    }
    if ( end )
        *end = (char *)s;
    return n;
}
