/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Freestanding string and memory functions (declared in shim/lib.h).
 * The string ones go a byte at a time: they see short strings.  memcpy
 * and memset move quadwords and then the tail: the domain builder copies
 * and clears tens of MiB with them (a kernel's segments, its initrd), and
 * under QEMU TCG each iteration of a rep string instruction costs the
 * same whatever its width, so rep movsb took 120 ms to load Debian's
 * 46 MiB kernel where rep movsq takes an eighth of that.  On hardware
 * either is fast.
 */
#include "shim/lib.h"

/*
 * Stop GCC from recognising a copy or fill loop below and replacing it
 * with a call to the very function being defined.
 */
#if __has_attribute(__optimize__)
#define no_libcall \
    __attribute__((__optimize__("no-tree-loop-distribute-patterns")))
#else
#define no_libcall
#endif

void *memcpy(void *dst, const void *src, size_t n)
{
    void *d = dst;
    size_t q = n / 8;

    asm volatile ( "rep movsq; mov %k3, %k2; rep movsb"
                   : "+D" (d), "+S" (src), "+c" (q)
                   : "r" (n & 7)
                   : "memory" );

    return dst;
}

/*
 * Overlap-safe copy: forward when the destination is below the source,
 * else backward with the direction flag set (SDM Vol. 2B, MOVS).
 */
void *memmove(void *dst, const void *src, size_t n)
{
    void *d;

    if ( dst <= src || (const char *)src + n <= (char *)dst )
        return memcpy(dst, src, n);

    d = (char *)dst + n - 1;
    src = (const char *)src + n - 1;
    asm volatile ( "std; rep movsb; cld"
                   : "+D" (d), "+S" (src), "+c" (n)
                   :
                   : "memory" );

    return dst;
}

void *__hot_text memset(void *dst, int c, size_t n)
{
    void *d = dst;
    size_t q = n / 8;

    asm volatile ( "rep stosq; mov %k3, %k1; rep stosb"
                   : "+D" (d), "+c" (q)
                   : "a" ((unsigned char)c * 0x0101010101010101UL),
                     "r" (n & 7)
                   : "memory" );

    return dst;
}

no_libcall int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    for ( ; n; n--, p++, q++ )
        if ( *p != *q )
            return *p - *q;

    return 0;
}

no_libcall size_t strlen(const char *s)
{
    const char *p = s;

    while ( *p )
        p++;

    return p - s;
}

no_libcall size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;

    while ( n < max && s[n] )
        n++;

    return n;
}

no_libcall int strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const void *)a, *q = (const void *)b;

    for ( ; *p && *p == *q; p++, q++ )
        ;

    return *p - *q;
}

no_libcall int strncmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const void *)a, *q = (const void *)b;

    for ( ; n; n--, p++, q++ )
        if ( *p != *q || !*p )
            return *p - *q;

    return 0;
}

/* As in C, searching for '\0' finds the terminator. */
no_libcall char *strchr(const char *s, int c)
{
    for ( ; ; s++ )
    {
        if ( *s == (char)c )
            return (char *)s;
        if ( !*s )
            return NULL;
    }
}

/*
 * BSD strlcpy: copy at most size - 1 bytes and always terminate when size
 * is non-zero.  Returns strlen(src), so a result >= size means truncation.
 */
no_libcall size_t strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if ( size )
    {
        size_t n = MIN(len, size - 1);

        memcpy(dst, src, n);
        dst[n] = '\0';
    }

    return len;
}
