/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The domain's life cycle around the entry code: per-CPU syscall set-up,
 * the checks on every exit to the guest, and the two ways it ends
 * (an orderly shutdown, or a crash with a reason and a register dump).
 */
#include "shim/lib.h"
#include <xen/sched.h>
#include "arch/x86/cr.h"
#include "arch/x86/desc.h"
#include "arch/x86/eflags.h"
#include "arch/x86/msr.h"
#include "arch/x86/percpu.h"
#include "arch/x86/traps.h"
#include "pv/domain.h"
#include "pv/pv.h"
#include "pv/emul/emul-cr.h"
#include "pv/entry.h"
#include "pv/event/event.h"
#include "pv/guest-access.h"
#include "pv/mm/mm.h"
#include "pv/traps.h"
#include "pv/guest-mode.h"
#include "pv/lifecycle.h"
#include "pv/vcpu/smp.h"
#include "arch/x86/smp.h"
#include "shim/console.h"
#include "shim/param.h"
#include "shim/panic.h"
#include "shim/shutdown.h"
#include "shim/softirq.h"

struct domain dom __aligned(4096);    /* shim/lib.h */

/*
 * Flags syscall clears on entry (MSR_SFMASK): AC NT IOPL DF IF TF.  Xen's
 * XEN_SYSCALL_MASK names VM and RF instead of IOPL; SYSCALL clears RF
 * itself and a 64-bit guest can't set VM, and IOPL is the shim's (0).
 */
#define SYSCALL_MASK        (X86_EFLAGS_AC | X86_EFLAGS_NT |                \
                             X86_EFLAGS_IOPL | X86_EFLAGS_DF |              \
                             X86_EFLAGS_IF | X86_EFLAGS_TF)

BUILD_BUG_ON(HYPERVISOR_VIRT_START != SHIM_AREA_START);
BUILD_BUG_ON(HYPERVISOR_VIRT_END != SHIM_AREA_END);
BUILD_BUG_ON(SHIM_CS != 0xe008);
BUILD_BUG_ON(GDT_RESERVED_ENTRY != FIRST_RESERVED_GDT_ENTRY);

/*
 * max-vcpus=<int>: how many vCPUs the guest has, each pinned on its own
 * CPU, so at most the number of CPUs brought up; 0 means that many.
 */
static unsigned int opt_max_vcpus;
integer_param("max-vcpus", opt_max_vcpus);

unsigned int pv_max_vcpus(void)
{
    unsigned int n = 0;

    /*
     * vCPU n runs on CPU n: the CPUs online from 0 up to the first that
     * isn't.  A CPU lost while coming up keeps its number (smpboot.c), so
     * those after it are online but can't host vCPUs in order.
     */
    while ( n < NR_CPUS && cpu_online(n) )
        n++;
    if ( n < num_online_cpus() )
        printk(XENLOG_WARNING "%u vCPUs at most: CPU%u is not online, "
               "so the %u CPU(s) after it host none\n", n, n,
               num_online_cpus() - n);
    return opt_max_vcpus && opt_max_vcpus < n ? opt_max_vcpus : n;
}

void pv_domain_init(unsigned int max_vcpus)
{
    unsigned int i;

    ASSERT(max_vcpus >= 1 && max_vcpus <= MAX_VCPUS);
    dom.max_vcpus = max_vcpus;
    for ( i = 0; i < MAX_VCPUS; i++ )
    {
        dom.vcpu[i].id = i;
        dom.vcpu[i].domain = &dom;
    }
    get_cpu_info()->current = &dom.vcpu[0];
}

/* syscall from ring 3 lands on this CPU's stub, on this CPU's stack. */
void pv_cpu_init(void)
{
    unsigned int cpu = smp_processor_id();
    struct cpu_info *ci = get_cpu_info();

    lstar_stack[cpu] = cpu_info_rsp0(ci);
    ci->current = &dom.vcpu[cpu];
    wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
    wrmsr(MSR_STAR, ((uint64_t)FLAT_RING3_CS32 << 48) |
                    ((uint64_t)SHIM_CS << 32));
    wrmsr(MSR_LSTAR, (unsigned long)lstar_stubs + cpu * 32);
    wrmsr(MSR_SFMASK, SYSCALL_MASK);
    pv_user_cpu_init();
    /* The CR4 the guest runs under: one function decides it. */
    write_cr4(pv_make_cr4());
}

/*
 * The exit path's work (__pv_exit_to_guest(), pv/entry.h), and the
 * domain lock dropped if this CPU holds it.  The work deferred to here
 * (softirqs: expired timers, the backends on CPU 0, ...) each with the
 * lock it needs (pv_do_softirq()); frames the guest gave back freed once
 * flushed (pv_mm_free_dying(): no domain lock); a vCPU that went down
 * leaving for the idle loop takes the domain lock here if the entry
 * didn't.  A pending NMI or event upcall is
 * this vCPU's alone and needs none.  Whatever the
 * guest (HYPERVISOR_iret, VCPUOP_initialise) or a handler put in the
 * frame, the guest then runs in ring 3 with interrupts on and IOPL 0:
 * every handler that writes the frame ends here.
 */
void __hot_text pv_exit_work(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();
    bool locked = pv_domain_locked();

    /* First: its flush lets interrupts in, and a pause's IPI is seen below. */
    if ( unlikely(mm_dying_pending()) )
        pv_mm_free_dying();
    if ( unlikely(pv_pause_on()) && !locked )
        pv_pause_park();
    /*
     * The softirqs, and a pause to park for after each run: the
     * backends' lock is waited for with interrupts on and is no stop for
     * a pause, so a pause's IPI may be gone by now; and softirqs again
     * after such a park, whose window may have taken a timer's and left
     * only its bit.  No softirq left, no second look: a stream of pauses
     * can't keep this CPU from its work below (a vCPU going down).
     */
    while ( softirq_pending() )
    {
        pv_do_softirq();
        if ( unlikely(pv_pause_on()) && !locked )
            pv_pause_park();
    }
    if ( v->down )
    {
        if ( !locked )
            pv_domain_lock();           /* waits with interrupts on */
        locked = true;
        pv_vcpu_check_down(regs);
    }
    /* An interrupt's entry didn't look: a 32-bit guest's ring is its own. */
    pv_compat_entry_mode(v, regs);
    pv_deliver_events(regs);
    if ( dom.compat )
    {
        /*
         * Ring 1 or 3 (or 2): never the shim's ring 0.  SS stays as the
         * guest gave it (compat_iret()): a wrong RPL faults the iretq,
         * and the guest gets that #GP with its own frame, as on Xen.
         */
        if ( !(regs->cs & 3) )
            regs->cs |= 1;
    }
    else
    {
        regs->cs |= 3;
        regs->ss |= 3;
    }
    regs->rflags = (regs->rflags & ~(X86_EFLAGS_IOPL | X86_EFLAGS_VM)) |
                   X86_EFLAGS_IF;
    if ( locked )
        pv_domain_unlock();
}

/* For pv_return_to_guest (pv/entry.S). */
void pv_exit_to_guest(struct cpu_regs *regs)
{
    __pv_exit_to_guest(regs, pv_domain_locked());
}

static void show_guest_registers(const struct cpu_regs *r)
{
    printk(XENLOG_ERR "d1v%u RIP: %04lx:%016lx  RFLAGS: %016lx  (%s mode)\n",
           current_vcpu()->id, r->cs, r->rip, r->rflags,
           current_vcpu()->kernel_mode ? "kernel" : "user");
    show_gprs(r);
    printk(XENLOG_ERR "cr3: %016lx   ss: %04lx\n", read_cr3(), r->ss);
}

/*
 * Xen's show_guest_stack(): debug_stack_lines (20) lines of 4 words from
 * the guest's rsp, up to the next 32 KiB (STACK_SIZE) boundary, every word
 * read as the guest could (a fault ends the dump, it can't hurt the shim).
 */
#define GUEST_STACK_WORDS   (20 * 4)
#define GUEST_STACK_MASK    (8 * PAGE_SIZE)

static void show_guest_stack(const struct cpu_regs *r)
{
    /* A 32-bit guest's: esp, 8 words of 4 bytes a line (Xen's compat). */
    unsigned int size = dom.compat ? 4 : 8, per_line = 32 / size;
    unsigned long sp = dom.compat ? (uint32_t)r->rsp : r->rsp, word = 0;
    unsigned int i, n = 0;
    char line[8 * 9 + 1];

    printk(XENLOG_ERR "Guest stack trace from %csp=%0*lx:\n",
           dom.compat ? 'e' : 'r', (int)size * 2, sp);
    for ( i = 0; i < GUEST_STACK_WORDS * 8 / size; i++, sp += size )
    {
        if ( ((sp - 1) ^ (sp + size - 1)) & GUEST_STACK_MASK )
            break;
        if ( copy_from_guest(&word, sp, size) )
        {
            if ( n )
                printk(XENLOG_ERR "  %s\n", line);
            printk(XENLOG_ERR "    Fault while accessing guest memory.\n");
            return;
        }
        n += snprintf(line + n, sizeof(line) - n, " %0*lx", (int)size * 2,
                      word);
        if ( i % per_line == per_line - 1 )
        {
            printk(XENLOG_ERR "  %s\n", line);
            n = 0;
        }
    }
    if ( n )
        printk(XENLOG_ERR "  %s\n", line);
    if ( !i )
        printk(XENLOG_ERR "   Stack empty.\n");
}

static void report_end(void)
{
    long bad;

    if ( opt_mm_audit )
    {
        /* The other vCPUs and the backends are at rest (end_locked()). */
        bad = pv_mm_audit();
        printk("mm audit: %s (%ld problem(s))\n", bad ? "FAILED" : "OK", bad);
    }
    if ( dom.unknown_hypercalls )
        printk(XENLOG_WARNING "d1: %lu call(s) to unimplemented hypercalls "
               "returned -ENOSYS\n", dom.unknown_hypercalls);
}

/*
 * The VM ends under the domain lock, every other vCPU at rest and the
 * backends' lock held, so what the shutdown hooks drain (the backends)
 * and report_end()'s audit see no hypercall or backend work in flight:
 * a lock-free path (a bounce, HYPERVISOR_iret) that crashes the guest
 * takes the domain lock here.  The pause comes before the backends'
 * lock: a CPU waiting for that one isn't at rest (pv_backends_lock_
 * unless_held()).
 */
static void end_locked(void)
{
    if ( !pv_domain_locked() )
        pv_domain_lock();
    ACCESS_ONCE(dom.shutting_down) = true;
    if ( !pv_pause_on() )               /* else this CPU's own, under it */
        pv_pause_others();
    (void)pv_backends_lock_unless_held();
}

/*
 * The guest broke the ABI or can't go on: say why, show its registers,
 * and end the VM with "guest crashed".  The shim itself is fine.
 */
noreturn void domain_crash(const char *fmt, ...)
{
    char msg[256];
    va_list args;

    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);

    end_locked();
    shutdown_hooks_run();           /* the guest's last output first */
    printk(XENLOG_ERR "d1: domain crash: %s\n", msg);
    show_guest_registers(&get_cpu_info()->guest_regs);
    show_guest_stack(&get_cpu_info()->guest_regs);
    report_end();
    machine_halt(SHIM_EXIT_GUEST_CRASH);
}

/* SCHEDOP_shutdown: the reason decides the VM's exit status. */
noreturn void domain_shutdown(unsigned int reason)
{
    static const char *const names[] = {
        [SHUTDOWN_poweroff] = "poweroff", [SHUTDOWN_reboot] = "reboot",
        [SHUTDOWN_suspend] = "suspend", [SHUTDOWN_crash] = "crash",
        [SHUTDOWN_watchdog] = "watchdog", [SHUTDOWN_soft_reset] = "soft_reset",
    };
    int status;

    end_locked();
    /* As Xen: an earlier shutdown_code wins over the reason. */
    if ( dom.shutdown_code != ~0u )
        reason = dom.shutdown_code;
    switch ( reason )
    {
    case SHUTDOWN_poweroff:
        status = SHIM_EXIT_POWEROFF;
        break;
    case SHUTDOWN_reboot:
    case SHUTDOWN_soft_reset:
        status = SHIM_EXIT_REBOOT;
        break;
    default:
        status = SHIM_EXIT_GUEST_CRASH;
        break;
    }
    shutdown_hooks_run();           /* the guest's last output first */
    if ( reason < ARRAY_SIZE(names) && names[reason] )
        printk("d1: shutdown: %s", names[reason]);
    else
        printk("d1: shutdown: unknown reason %u", reason);
    if ( dom.shutdown_code != ~0u )
        printk(" (code %u)", dom.shutdown_code);
    printk("\n");
    report_end();
    if ( status == SHIM_EXIT_REBOOT )
        machine_reboot(status);
    machine_halt(status);
}
