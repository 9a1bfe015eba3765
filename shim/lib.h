/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Freestanding basics shared by every part of the shim: fixed-width types,
 * compiler attributes, string and formatting helpers (shim/lib/).
 */
#ifndef SHIM_LIB_H
#define SHIM_LIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define always_inline   inline __attribute__((__always_inline__))
#define noinline        __attribute__((__noinline__))
#define noreturn        __attribute__((__noreturn__))
#define __used          __attribute__((__used__))
#define __packed        __attribute__((__packed__))
#define __aligned(a)    __attribute__((__aligned__(a)))
#define __section(s)    __attribute__((__section__(s)))
#define __printf(a, b)  __attribute__((__format__(__printf__, a, b)))

/*
 * Where the paths between the guest's modes keep their code and data.
 * Under QEMU's TCG every CR3 write empties the soft TLB, and a 64-bit PV
 * guest makes two per kernel/user crossing, so each page the shim then
 * touches costs a soft-TLB fill (a page walk in QEMU's C code) again.
 * The link keeps each of these sections together (boot/shim.lds.S), so
 * the crossings refill a few pages, not one per function or variable:
 * __hot_text for the entry, exit, MM, event and timer code they run;
 * __read_mostly (Xen's) for data they read and rarely change (options,
 * boot-time values); __hot_data for what they write often (the per-CPU
 * arrays of softirq bits and flush clocks, the syscall entry's stack
 * pointers): CPU 0's slots of all of it fit the read-mostly data's page.
 * docs/benchmarks.md, "Issue 19, part 13", counts the fills.
 */
#define __hot_text      __section(".text.hot")
#define __read_mostly   __section(".data.read_mostly")
#define __hot_data      __section(".data.hot")
#define likely(x)       __builtin_expect(!!(x), 1)
#define unlikely(x)     __builtin_expect(!!(x), 0)

#define ACCESS_ONCE(x)  (*(volatile typeof(x) *)&(x))
#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define ROUNDUP(x, a)   (((x) + (a) - 1) & ~((typeof(x))(a) - 1))
#define ROUNDDOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define MIN(a, b)       ((a) < (b) ? (a) : (b))
#define MAX(a, b)       ((a) > (b) ? (a) : (b))
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)

#define container_of(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))

/*
 * IS_ENABLED(CONFIG_X): 1 if CONFIG_X is defined to 1, else 0, usable in
 * ordinary C conditions so both branches are always compiled (Linux's trick).
 */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(ignored, val, ...) val
#define ___is_defined(val) ____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option) ___is_defined(option)

/*
 * ASSERT(p): a shim invariant, checked in CONFIG_DEBUG builds only.  Never
 * for guest input (that gets an error or a guest crash, not a panic).
 */
#ifdef SHIM_HOST_TEST
#include <assert.h>
#define ASSERT(p) assert(p)
#else
noreturn void assert_failed(const char *pred, const char *file,
                            unsigned int line);
#define ASSERT(p) do {                                                  \
    if ( IS_ENABLED(CONFIG_DEBUG) && unlikely(!(p)) )                   \
        assert_failed(#p, __FILE__, __LINE__);                          \
} while ( 0 )
#endif

/* shim/lib/string.c.  Host unit tests use the C library's versions. */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strlcpy(char *dst, const char *src, size_t size);

/*
 * shim/lib/crc32.c: CRC-32 (IEEE 802.3, reflected) of @len bytes, carried
 * on from @crc (0 to start).
 */
uint32_t crc32(uint32_t crc, const void *buf, size_t len);

/* Little-endian fields, a byte at a time (no alignment assumed). */
static inline uint32_t get_le16(const uint8_t *p)
{
    return p[0] | (p[1] << 8);
}

static inline uint32_t get_le32(const uint8_t *p)
{
    return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t get_le64(const uint8_t *p)
{
    return get_le32(p) | ((uint64_t)get_le32(p + 4) << 32);
}

/* The value of hex digit @c (either case), or 16 for any other character. */
static inline int hex_digit(char c)
{
    if ( c >= '0' && c <= '9' )
        return c - '0';
    if ( c >= 'a' && c <= 'f' )
        return c - 'a' + 10;
    if ( c >= 'A' && c <= 'F' )
        return c - 'A' + 10;
    return 16;
}

/*
 * shim/lib/strtoull.c: parse an unsigned number in base 0 (auto: 0x hex,
 * leading 0 octal, else decimal), 10 or 16.  *endp gets the first unparsed
 * character; *overflow (if not NULL) is set when the value does not fit.
 */
unsigned long long simple_strtoull(const char *cp, const char **endp,
                                   unsigned int base, bool *overflow);

/*
 * The whole of @s as an unsigned decimal number: digits only, at least
 * one, no sign, space or base prefix (stricter than Linux's "%u", which
 * takes "12abc" as 12).  False, *@out untouched, otherwise; *@overflow
 * then says whether it was all digits but too big.
 */
bool parse_ulong_exact(const char *s, unsigned long *out, bool *overflow);

/* shim/lib/vsnprintf.c: C99 semantics, returns the length it wanted. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif /* SHIM_LIB_H */
