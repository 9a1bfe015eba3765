/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest library's API for test kernels: start-of-day state, console
 * output, expected faults, and the test result.
 */
#ifndef GUEST_GUEST_H
#define GUEST_GUEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/errno.h>

#include "arch.h"
#include "hypercall.h"

#define __printf(f, a) __attribute__((format(__printf__, f, a)))

/* A vCPU id no domain has, whatever its CPU count (the shim's at most 64). */
#define NO_VCPU         64
#define __noreturn      __attribute__((noreturn))
#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define PAGE_SIZE       4096UL

/* ------------------------------------------------------------ the test */

/* Each test kernel defines these two. */
extern const char test_title[];
void test_main(void);

/*
 * A test that defines this as true starts with no trap table: the library
 * then never calls set_trap_table (for tests of the hypervisor's handling
 * of a guest without exception handlers).
 */
extern const bool test_no_trap_table __attribute__((weak));

/*
 * The result, as XTF reports it: the worst one reported wins, in the order
 * SUCCESS < SKIP < ERROR < FAILURE, and a test that reports nothing ends
 * in ERROR.  The messages go to the console at once, one line each.
 */
void test_success(void);
void test_skip(const char *fmt, ...) __printf(1, 2);
void test_error(const char *fmt, ...) __printf(1, 2);   /* the test broke */
void test_fail(const char *fmt, ...) __printf(1, 2);   /* the hypervisor did */

/*
 * End the test at once, from any vCPU: print the result line and power
 * off (every test ends so when test_main() returns).  For a vCPU that
 * finds another one stuck, which test_main() may never return from.
 */
void __noreturn test_exit(void);

/*
 * test_fail() unless @expr evaluates to @want, both taken as long long:
 * a 32-bit guest's PTEs and times compare in full too.  An unsigned long
 * (a hypercall's result, e.g. HYPERVISOR_get_debugreg's) is sign-extended
 * as the 64-bit conversion does, so -EINVAL reads -22 on both widths.
 */
#define rc_widen_(x) _Generic((x),                                          \
    unsigned long: (long long)(long)(x),                                    \
    default: (long long)(x))
#define check_rc(expr, want) do {                                           \
    long long got_ = rc_widen_(expr), want_ = rc_widen_(want);              \
                                                                            \
    if ( got_ != want_ )                                                    \
        test_fail("%s: got %lld, expected %lld", #expr, got_, want_);       \
} while ( 0 )

/* --------------------------------------------------- start-of-day state */

extern start_info_t *start_info;        /* %rsi / %esi at entry */

/*
 * shared_info is at a machine address (start_info->shared_info); this maps
 * it with update_va_mapping.  Returns 0 or the hypercall's error; until it
 * succeeds, shared_info is NULL.
 */
extern shared_info_t *shared_info;
long map_shared_info(void);

/* ------------------------------------------------------------- console */

int printf(const char *fmt, ...) __printf(1, 2);
int vprintf(const char *fmt, va_list args);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);

/* BAD_UNMAPPED, BAD_NONCANONICAL, BAD_XEN: see arch.h. */

/* ------------------------------------------------------ expected faults */

/* The stack pointer's name in asm strings ("%%rsp" or "%%esp" in one). */
#ifdef __x86_64__
#define ASM_SP          "%rsp"
#else
#define ASM_SP          "%esp"
#endif

/* Exception vectors (SDM vol. 3 table 6-1). */
#define X86_EXC_DE   0
#define X86_EXC_DB   1
#define X86_EXC_BP   3
#define X86_EXC_OF   4
#define X86_EXC_UD   6
#define X86_EXC_GP  13
#define X86_EXC_PF  14
#define X86_NR_EXC  32

/*
 * A fault that a test expects, in one register: a flag that a fault
 * happened, the vector and the error code (0 for vectors without one);
 * arch.h says where each lives for the guest's width.
 */
typedef unsigned long exinfo_t;

#define EXINFO(vec, ec)      (EXINFO_FAULT |                               \
                              ((exinfo_t)(vec) << EXINFO_VEC_SHIFT) |      \
                              ((exinfo_t)(ec) & EXINFO_EC_MASK))
#define exinfo_vector(ex)    ((unsigned int)((ex) >> EXINFO_VEC_SHIFT) & 0xff)
#define exinfo_error(ex)     ((uint32_t)((ex) & EXINFO_EC_MASK))

/*
 * ASM_EXTABLE(fault, fixup), inside an asm statement: an exception taken at
 * @fault (its RIP in the exception frame) resumes at @fixup with %rax (or
 * %eax) = the exinfo_t.  Give the asm a "+a" (ex) operand set to 0
 * beforehand.
 */
#define ASM_EXTABLE(fault, fixup)                                           \
    ".pushsection .ex_table, \"a\"\n\t"                                     \
    ".balign " ASM_PTR_ALIGN "\n\t"                                         \
    ASM_PTR " " #fault ", " #fixup "\n\t"                                   \
    ".popsection\n\t"

/*
 * One instruction that may raise an exception: its exinfo_t, or 0.  A
 * fault reports the instruction, a trap (int $n's) the one after it.
 * The instruction can't use %rax / %eax: it carries the result.
 */
#define TRY(insn, operands...) ({                                           \
    exinfo_t ex_ = 0;                                                       \
    asm volatile ( "1: " insn "; 2:\n\t"                                    \
                   ASM_EXTABLE(1b, 2b)                                      \
                   ASM_EXTABLE(2b, 2b)                                      \
                   : "+a" (ex_) : operands : "memory" );                    \
    ex_;                                                                    \
})

/*
 * rdmsr where the hypervisor may emulate it (a guest kernel's): 0 and
 * the value in *@val, or the fault.  The low half goes through another
 * register: %eax may be the exinfo_t.
 */
static inline exinfo_t rdmsr_safe(uint32_t msr, uint64_t *val)
{
    exinfo_t ex = 0;
    uint32_t lo = 0, hi = 0;

    asm volatile ( "1: rdmsr; mov %%eax, %[lo]; xor %%eax, %%eax; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), "+d" (hi), [lo] "+r" (lo) : "c" (msr)
                   : "memory" );
    *val = ((uint64_t)hi << 32) | lo;
    return ex;
}

/*
 * In a loop that waits for another vCPU, as Linux's cpu_relax(): under
 * QEMU's one TCG thread a pause hands the thread to the next vCPU (which
 * is what such a loop waits for) instead of spinning out its time slice.
 */
static inline void cpu_relax(void)
{
    asm volatile ( "pause" ::: "memory" );
}

/* The limit the CPU reads for selector @sel, or ~0UL if LSL refuses it. */
static inline unsigned long lsl(unsigned int sel)
{
    unsigned int limit = 0;
    bool ok;

    asm volatile ( "lsl %[sel], %[lim]; setz %[ok]"
                   : [lim] "+r" (limit), [ok] "=qm" (ok) : [sel] "r" (sel) );
    return ok ? limit : ~0UL;
}

/* Read or write one byte at @p; 0, or the fault it raised. */
static inline exinfo_t probe_read(const void *p)
{
    exinfo_t ex = 0;

    asm volatile ( "1: movb (%[p]), %%dl; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : [p] "r" (p) : "edx", "memory" );
    return ex;
}

/*
 * Read the quadword at @p into *@v in the access that may fault (a
 * window another vCPU may unmap between a probe and a read): 0, or the
 * fault it raised (*@v then unchanged).  A 32-bit guest reads it as two
 * halves, as a plain 64-bit load there does.
 */
static inline exinfo_t probe_peek(const void *p, uint64_t *v)
{
    exinfo_t ex = 0;
#ifdef __x86_64__
    uint64_t val = *v;

    asm volatile ( "1: movq (%[p]), %[val]; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), [val] "+r" (val) : [p] "r" (p) : "memory" );
#else
    uint32_t lo = *v, hi = *v >> 32;

    asm volatile ( "1: movl (%[p]), %[lo]; 2: movl 4(%[p]), %[hi]; 3:\n\t"
                   ASM_EXTABLE(1b, 3b) ASM_EXTABLE(2b, 3b)
                   : "+a" (ex), [lo] "+r" (lo), [hi] "+r" (hi)
                   : [p] "r" (p) : "memory" );
    uint64_t val = ex ? *v : ((uint64_t)hi << 32 | lo);
#endif
    *v = val;
    return ex;
}

static inline exinfo_t probe_write(void *p)
{
    exinfo_t ex = 0;

    asm volatile ( "1: movb $0, (%[p]); 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : [p] "r" (p) : "memory" );
    return ex;
}

#ifdef __x86_64__
/* xchg of *@v with the quadword at @p: 0 (*@v what was there), or the
 * fault it raised. */
static inline exinfo_t probe_xchg(volatile uint64_t *p, uint64_t *v)
{
    exinfo_t ex = 0;

    asm volatile ( "1: xchg %[v], (%[p]); 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), [v] "+r" (*v) : [p] "r" (p) : "memory" );
    return ex;
}
#endif

/*
 * CR2 of the last #PF taken through the library's handler, from
 * shared_info's vcpu_info[0].arch.cr2; ~0UL if shared_info isn't mapped.
 */
extern unsigned long last_pf_cr2;

/* The library's trap table and its per-vector entry stubs (entry.S). */
extern const unsigned long exception_entry[X86_NR_EXC];
long trap_init(void);

/* -------------------------------------------------------------- string */

void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strstr(const char *haystack, const char *needle);
/* The digits (base 10 or 16) at @s's start; *@end past them if @end. */
unsigned long strtoul(const char *s, char **end, int base);

#endif /* GUEST_GUEST_H */
