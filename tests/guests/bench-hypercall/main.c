/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Benchmark: the cost of a xen_version(XENVER_version) round trip, timed
 * with fenced rdtsc around each call.  A local copy of the hypercall stub
 * with the `syscall` replaced by a one-instruction nop times the guest's
 * own part, so the difference of the medians is what the hypervisor side
 * costs.  Under QEMU's -icount shift=0, rdtsc counts instructions retired,
 * so that difference is an exact instruction count (make bench).
 *
 * Command line: iterations=N (default 2000, at most MAX_SAMPLES).
 */
#include "guest.h"

#define __str(x) #x
#define __stringify(x) __str(x)

#define MAX_SAMPLES 100000

const char test_title[] = "bench: xen_version round trips";

static uint32_t samples[MAX_SAMPLES];

/*
 * The hypercall page's stub for xen_version, minus the syscall (or, for
 * a 32-bit guest, minus the int $0x82).
 */
#ifdef __x86_64__
asm ( ".pushsection .text\n\t"
      ".balign 32\n"
      "baseline_stub:\n\t"
      "push %rcx\n\t"
      "push %r11\n\t"
      "mov $" __stringify(__HYPERVISOR_xen_version) ", %eax\n\t"
      "xchg %ax, %ax\n\t"               /* 2 bytes, 1 instruction */
      "pop %r11\n\t"
      "pop %rcx\n\t"
      "ret\n\t"
      ".popsection" );
#else
asm ( ".pushsection .text\n\t"
      ".balign 32\n"
      "baseline_stub:\n\t"
      "mov $" __stringify(__HYPERVISOR_xen_version) ", %eax\n\t"
      "xchg %ax, %ax\n\t"               /* 2 bytes, 1 instruction */
      "ret\n\t"
      ".popsection" );
#endif

static inline uint64_t rdtsc_fenced(void)
{
    uint32_t lo, hi;

    asm volatile ( "lfence; rdtsc; lfence" : "=a" (lo), "=d" (hi)
                   :: "memory" );
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t time_hypercall(void)
{
    uint64_t t0 = rdtsc_fenced();

    HYPERCALL(__HYPERVISOR_xen_version, XENVER_version, 0, 0, 0, 0);
    return rdtsc_fenced() - t0;
}

/* The same call as HYPERCALL() makes: the argument registers set up. */
static uint32_t time_baseline(void)
{
    uint64_t t0 = rdtsc_fenced();
#ifdef __x86_64__
    register unsigned long a1 asm ( "rdi" ) = XENVER_version;

    asm volatile ( "call baseline_stub"
                   : "+r" (a1) :: "rax", "rsi", "rdx", "r10", "r8",
                     "memory" );
#else
    unsigned long a1 = XENVER_version;

    asm volatile ( "call baseline_stub"
                   : "+b" (a1) :: "eax", "ecx", "edx", "esi", "edi",
                     "memory" );
#endif
    return rdtsc_fenced() - t0;
}

/* Sort a[0..n) ascending: heapsort, in place, no recursion. */
static void sift(uint32_t *a, unsigned long root, unsigned long n)
{
    unsigned long child;
    uint32_t t;

    while ( (child = 2 * root + 1) < n )
    {
        if ( child + 1 < n && a[child + 1] > a[child] )
            child++;
        if ( a[root] >= a[child] )
            return;
        t = a[root]; a[root] = a[child]; a[child] = t;
        root = child;
    }
}

static void sort(uint32_t *a, unsigned long n)
{
    unsigned long i;
    uint32_t t;

    for ( i = n / 2; i-- > 0; )
        sift(a, i, n);
    for ( i = n; i-- > 1; )
    {
        t = a[0]; a[0] = a[i]; a[i] = t;
        sift(a, 0, i);
    }
}

static void measure(const char *what, uint32_t (*fn)(void),
                    unsigned long n, uint32_t *median)
{
    unsigned long i;
    uint32_t p10, p90, min, max;

    for ( i = 0; i < 100; i++ )         /* warm up */
        fn();
    for ( i = 0; i < n; i++ )
        samples[i] = fn();
    sort(samples, n);
    min = samples[0];
    max = samples[n - 1];
    p10 = samples[n / 10];
    p90 = samples[n * 9 / 10];
    *median = samples[n / 2];
    printf("bench: %-9s n=%lu median=%u p10=%u p90=%u min=%u max=%u\n",
           what, n, *median, p10, p90, min, max);
}

static unsigned long iterations(void)
{
    const char *p = (const char *)start_info->cmd_line;
    unsigned long n = 0;

    for ( ; *p; p++ )
        if ( (p == (const char *)start_info->cmd_line || p[-1] == ' ') &&
             !memcmp(p, "iterations=", 11) )
        {
            for ( p += 11; *p >= '0' && *p <= '9'; p++ )
                n = n * 10 + (*p - '0');
            break;
        }
    if ( !n )
        n = 2000;
    return n > MAX_SAMPLES ? MAX_SAMPLES : n;
}

void test_main(void)
{
    unsigned long n = iterations();
    uint32_t call, base;

    check_rc(HYPERCALL(__HYPERVISOR_xen_version, XENVER_version, 0, 0, 0, 0)
             >> 16, 4);
    measure("hypercall", time_hypercall, n, &call);
    measure("baseline", time_baseline, n, &base);
    printf("bench: xen_version hypervisor side: %d (median difference)\n",
           (int)(call - base));
    test_success();
}
