/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host-native microbenchmark of the hypercall dispatch path: the shim's
 * own pv/hypercall.c and pv/version.c, compiled into a user-space harness,
 * timed with rdtsc on this CPU.  Only the C path is measured (no syscall,
 * no entry assembly, no exit): what the dispatcher and a trivial
 * handler cost, from each entry's hypercall body (pv_syscall()'s for a
 * 64-bit guest, pv_int82()'s for a 32-bit one) with the speculation
 * hardening's lfences on, as the default spec-ctrl has them.  Built with
 * -DCONFIG_UNIFIED_HYPERCALL it measures the "before" of the split: the
 * one out-of-line dispatcher both entries call.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "../../pv/hypercall.c"
#include "../../pv/version.c"
#include "pv/vcpu/smp.h"

struct domain dom;
struct vcpu *host_current_vcpu = &dom.vcpu[0];
uint8_t spec_ctrl_flags = SCF_ENTRY_LFENCE;
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

/*
 * Everything else the two files reach, as no-ops.  The hypercall handlers
 * (do_*) other than do_xen_version() are not here: tests/bench/run.sh
 * generates a stub for every do_* this file leaves undefined, so a new
 * handler in the dispatcher needs no edit here.  Any other new dependency
 * fails the link, which `make check` (BENCH_SHORT=1) reports.
 */
size_t raw_copy_from_user(void *d, const void *s, size_t n)
{ memcpy(d, s, n); return 0; }
size_t raw_copy_to_user(void *d, const void *s, size_t n)
{ memcpy(d, s, n); return 0; }
uint32_t pv_features_submap(unsigned int idx) { return 0; }
void pv_bounce_syscall(struct cpu_regs *r) { }
void pv_domain_lock(void) { }
void pv_domain_unlock(void) { }
unsigned long pv_exit_all;
void pv_pause_others(void) { }
void pv_unpause_others(void) { }
bool pv_backends_lock_unless_held(void) { return false; }
void pv_backends_unlock_taken(bool taken) { }
void pv_exit_work(struct cpu_regs *r) { }
void printk(const char *fmt, ...) { }
unsigned long opt_mm_audit;
long pv_mm_audit(void) { return 0; }
bool pv_mmuext_changed_refs(void) { return false; }
bool pv_memory_op_changed_refs(void) { return false; }
bool pv_evtchn_changed_refs(void) { return false; }
void panic(const char *fmt, ...) { abort(); }

static int cmp(const void *a, const void *b)
{
    return *(const unsigned long *)a < *(const unsigned long *)b ? -1 :
           *(const unsigned long *)a > *(const unsigned long *)b;
}

/*
 * One entry's C function, @calls times per round: xen_version(XENVER_version)
 * from a 64-bit guest (%rax, %rdi) or a 32-bit one (%eax, %ebx).
 */
static int measure(const char *what, bool compat, unsigned int rounds,
                   unsigned int calls, unsigned long *per_round)
{
    const long want = (XEN_MAJOR << 16) | XEN_MINOR;
    struct cpu_regs regs = { 0 };
    unsigned int r, i;

    dom.compat = compat;
    for ( r = 0; r < rounds; r++ )
    {
        unsigned long t0 = __rdtsc();

        for ( i = 0; i < calls; i++ )
        {
            /* Opaque to the compiler, as a guest's %rax is. */
            unsigned long nr = __HYPERVISOR_xen_version;

            asm volatile ( "" : "+r" (nr) );
            regs.rax = nr;
            regs.rdi = regs.rbx = XENVER_version;
            /* What pv_int82() / pv_syscall() run between lock and exit. */
            if ( compat )
                compat_hypercall(&regs);
            else
                native_hypercall(&regs);
        }
        per_round[r] = __rdtsc() - t0;
    }
    if ( (long)regs.rax != want )
    {
        fprintf(stderr, "%s: xen_version gave %#lx\n", what, regs.rax);
        return 1;
    }
    qsort(per_round, rounds, sizeof(per_round[0]), cmp);
    printf("%s(xen_version): %.2f TSC cycles/call (median of %u rounds of "
           "%u; p10 %.2f, p90 %.2f)\n", what,
           (double)per_round[rounds / 2] / calls, rounds, calls,
           (double)per_round[rounds / 10] / calls,
           (double)per_round[rounds * 9 / 10] / calls);
    return 0;
}

/*
 * Usage: host-dispatch [ROUNDS CALLS] (default 101 rounds of 100000 calls;
 * make check runs a few short rounds).
 */
int main(int argc, char **argv)
{
    enum { MAX_ROUNDS = 101 };
    static unsigned long per_round[MAX_ROUNDS];
    unsigned int rounds = MAX_ROUNDS, calls = 100000;
    struct cpu_regs regs = { 0 };
    unsigned long args[6] = { XENVER_version };
    long rc;

    if ( argc == 3 )
    {
        rounds = strtoul(argv[1], NULL, 0);
        calls = strtoul(argv[2], NULL, 0);
    }
    if ( argc != 1 && argc != 3 )
        rounds = 0;
    if ( !rounds || rounds > MAX_ROUNDS || !calls )
    {
        fprintf(stderr, "usage: %s [ROUNDS (1-%d) CALLS]\n", argv[0],
                MAX_ROUNDS);
        return 2;
    }

    /* The real dispatcher must answer (XENVER_version inline in it). */
    rc = pv_do_hypercall(&regs, __HYPERVISOR_xen_version, args, false);
    if ( rc != ((XEN_MAJOR << 16) | XEN_MINOR) )
    {
        fprintf(stderr, "xen_version(XENVER_version) gave %#lx\n", rc);
        return 1;
    }
    host_current_vcpu->kernel_mode = true;
    return measure("pv64 pv_syscall", false, rounds, calls, per_round) ||
           measure("pv32 pv_int82", true, rounds, calls, per_round);
}
