/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host-native microbenchmark of the hypercall dispatch path: the shim's
 * own pv/hypercall.c and pv/version.c, compiled into a user-space harness,
 * timed with rdtsc on this CPU.  Only the C path is measured (no syscall,
 * no entry assembly): what the dispatcher and a trivial handler cost.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "../../pv/hypercall.c"
#include "../../pv/version.c"

struct domain dom;
struct boot_info boot_info;
const char __note_gnu_build_id_start[1], __note_gnu_build_id_end[1];

size_t strlcpy(char *d, const char *s, size_t n)
{
    size_t len = strlen(s);

    if ( n )
    {
        size_t c = len < n - 1 ? len : n - 1;

        memcpy(d, s, c);
        d[c] = '\0';
    }
    return len;
}

/* Everything else the two files reach, as no-ops. */
size_t raw_copy_from_user(void *d, const void *s, size_t n)
{ memcpy(d, s, n); return 0; }
size_t raw_copy_to_user(void *d, const void *s, size_t n)
{ memcpy(d, s, n); return 0; }
uint32_t pv_features_submap(unsigned int idx) { return 0; }
void pv_bounce_syscall(struct cpu_regs *r) { }
#define STUB(name, ...) long name(__VA_ARGS__) { return -XEN_ENOSYS; }
STUB(do_set_trap_table, unsigned long a)
STUB(do_stack_switch, unsigned long a, unsigned long b)
STUB(do_set_callbacks, unsigned long a, unsigned long b, unsigned long c)
STUB(do_fpu_taskswitch, unsigned long a)
STUB(do_set_debugreg, unsigned long a, unsigned long b)
unsigned long do_get_debugreg(unsigned long a) { return 0; }
STUB(do_update_descriptor, unsigned long a, unsigned long b)
STUB(do_set_gdt, unsigned long a, unsigned long b)
STUB(do_memory_op, unsigned long a, unsigned long b)
STUB(do_multicall, unsigned long a, unsigned long b)
STUB(do_console_io, unsigned long a, unsigned long b, unsigned long c)
STUB(do_vm_assist, unsigned long a, unsigned long b)
STUB(do_iret, struct cpu_regs *r)
STUB(do_set_segment_base, unsigned long a, unsigned long b)
STUB(do_sched_op, unsigned long a, unsigned long b)
STUB(do_callback_op, unsigned long a, unsigned long b)
STUB(do_event_channel_op, unsigned long a, unsigned long b)
STUB(do_mmu_update, unsigned long a, unsigned long b, unsigned long c,
     unsigned long d)
STUB(do_mmuext_op, unsigned long a, unsigned long b, unsigned long c,
     unsigned long d)
STUB(do_update_va_mapping, unsigned long a, unsigned long b, unsigned long c)
STUB(do_update_va_mapping_otherdomain, unsigned long a, unsigned long b,
     unsigned long c, unsigned long d)
bool opt_mm_audit;
long pv_mm_audit(void) { return 0; }
void panic(const char *fmt, ...) { abort(); }

static int cmp(const void *a, const void *b)
{
    return *(const unsigned long *)a < *(const unsigned long *)b ? -1 :
           *(const unsigned long *)a > *(const unsigned long *)b;
}

int main(int argc, char **argv)
{
    enum { ROUNDS = 101, CALLS = 100000 };
    static unsigned long per_round[ROUNDS];
    struct cpu_regs regs = { 0 };
    unsigned long args[6] = { XENVER_version };
    volatile long sink;
    unsigned int r, i;

    for ( r = 0; r < ROUNDS; r++ )
    {
        unsigned long t0 = __rdtsc();

        for ( i = 0; i < CALLS; i++ )
        {
            /* Opaque to the compiler, as a guest's %rax is. */
            unsigned long nr = __HYPERVISOR_xen_version;

            asm volatile ( "" : "+r" (nr) );
            sink = pv_do_hypercall(&regs, nr, args, false);
        }
        per_round[r] = __rdtsc() - t0;
    }
    (void)sink;
    qsort(per_round, ROUNDS, sizeof(per_round[0]), cmp);
    printf("host-native pv_do_hypercall(xen_version): %.2f TSC cycles/call "
           "(median of %d rounds of %d; p10 %.2f, p90 %.2f)\n",
           (double)per_round[ROUNDS / 2] / CALLS, ROUNDS, CALLS,
           (double)per_round[ROUNDS / 10] / CALLS,
           (double)per_round[ROUNDS * 9 / 10] / CALLS);
    return 0;
}
