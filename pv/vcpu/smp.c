/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's vCPUs on the shim's CPUs: vCPU n runs on CPU n only (as
 * sched=null), entered from CPU n's idle loop once it is up and left for
 * it when it goes down; the interim domain lock that serialises all the
 * shim's work for the guest; kicking a vCPU on another CPU.
 */
#include "shim/lib.h"
#include "arch/x86/apic.h"
#include "arch/x86/cr.h"
#include "arch/x86/flush.h"
#include "arch/x86/fpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "arch/x86/segment.h"
#include "arch/x86/smp.h"
#include "arch/x86/traps.h"
#include "pv/pv.h"
#include "pv/compat/layout.h"
#include "pv/descriptor-tables.h"
#include "pv/traps.h"
#include "pv/domain.h"
#include "pv/emul/emul-cr.h"
#include "pv/event/event.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "arch/x86/uaccess.h"
#include "pv/vcpu/time.h"
#include "pv/entry.h"
#include "pv/lifecycle.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"
#include "shim/idle.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/*
 * mm-audit's stop of the world, as Xen pauses every vCPU but the
 * caller's: each other CPU running a vCPU is sent an IPI and comes to
 * rest where it holds none of the MMU's state, with no page lock and
 * between two operations: parked on its way back to the guest
 * (pv_pause_park()), or waiting for the domain lock, which the pauser
 * holds.  A vCPU blocked or polling parks in its sleep (vcpu_sleep());
 * one asleep with the domain lock held (the old sched_op) waits for it
 * as it wakes.  Waiting for the backends' lock is no such stop: the
 * exit parks after the softirqs that take it (pv_exit_work()).
 * pv_exit_all counts pauses begun and ended above bit 0 (odd: one in
 * progress: pause_count()); quiescent[cpu] is the count a CPU is parked
 * for, or LOCK_WAIT.  A parked CPU leaves once that pause ends and goes
 * on, not parking again at once for the next (whose pauser waits for its
 * next stop): a stream of audits on one vCPU can't keep another from its
 * own work (a vCPU going down, in vcpu-down-race, never got the moment
 * between two).
 */
#define LOCK_WAIT   (~0UL)
#define PAUSE_RESEND_NS 100000ULL       /* 100 us */
unsigned long __hot_data pv_exit_all;
static unsigned long quiescent[NR_CPUS];

static unsigned long pause_count(unsigned long exit_all)
{
    return exit_all / EXIT_ALL_PAUSE;
}

void pv_pause_others(void)
{
    unsigned long others, seq;
    unsigned int cpu;

    ASSERT(pv_domain_locked());
    seq = pause_count(__atomic_add_fetch(&pv_exit_all, EXIT_ALL_PAUSE,
                                         __ATOMIC_SEQ_CST));
    others = pv_domain_cpumask() & ~(1UL << smp_processor_id());
    if ( others )
        send_IPI_mask(others, EVENT_CHECK_VECTOR);
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
    {
        uint64_t again;
        unsigned long q;

        if ( !((others >> cpu) & 1) )
            continue;
        again = NOW() + PAUSE_RESEND_NS;
        while ( (q = __atomic_load_n(&quiescent[cpu], __ATOMIC_ACQUIRE)) !=
                seq && q != LOCK_WAIT )
        {
            local_irq_window();         /* a flush they wait for */
            cpu_relax();
            /*
             * Its IPI may have come while it was still parked for the
             * pause before (it then goes on to the guest, and stops only
             * at its next exit, a timer's perhaps a second away): again,
             * once it has had the time to run a little of its own.
             */
            if ( NOW() >= again )
            {
                send_IPI_mask(1UL << cpu, EVENT_CHECK_VECTOR);
                again = NOW() + PAUSE_RESEND_NS;
            }
        }
    }
}

void pv_unpause_others(void)
{
    __atomic_add_fetch(&pv_exit_all, EXIT_ALL_PAUSE, __ATOMIC_SEQ_CST);
}

/*
 * Xen's vcpu_pause() of another vCPU @v, for a VCPUOP on its areas:
 * every other CPU running a vCPU at rest (more than Xen pauses, for an
 * operation a guest makes at boot), unless @v is this CPU's or isn't
 * running.  True if pv_unpause_vcpu() must end it.
 */
bool pv_pause_vcpu(const struct vcpu *v)
{
    if ( v == current_vcpu() || !ACCESS_ONCE(v->running) )
        return false;
    pv_pause_others();
    return true;
}

void pv_unpause_vcpu(bool paused)
{
    if ( paused )
        pv_unpause_others();
}

void pv_pause_park(void)
{
    unsigned int cpu = smp_processor_id();
    unsigned long seq = pause_count(__atomic_load_n(&pv_exit_all,
                                                    __ATOMIC_ACQUIRE));

    ASSERT(!pv_domain_locked() && !pv_holds_table_lock());
    if ( !(seq & 1) )
        return;
    __atomic_store_n(&quiescent[cpu], seq, __ATOMIC_SEQ_CST);
    while ( pause_count(__atomic_load_n(&pv_exit_all, __ATOMIC_ACQUIRE)) ==
            seq )
    {
        local_irq_window();
        cpu_relax();
    }
    __atomic_store_n(&quiescent[cpu], 0, __ATOMIC_RELEASE);
}

/*
 * The domain lock: who takes it, what it protects and what nests inside
 * it are in docs/architecture.md, "Locks".  Waiting for it with
 * interrupts on keeps this CPU answering the holder's TLB-flush and
 * call-function IPIs.
 */
void pv_domain_lock(void)
{
    unsigned int cpu = smp_processor_id();

    /* A wait here is a stop where a pause may find this CPU (below). */
    ASSERT(!pv_holds_table_lock());
    __atomic_store_n(&quiescent[cpu], LOCK_WAIT, __ATOMIC_SEQ_CST);
    spin_lock_irq_on_wait(&dom.domain_lock);
    __atomic_store_n(&quiescent[cpu], 0, __ATOMIC_RELEASE);
}

void pv_domain_unlock(void)
{
    spin_unlock(&dom.domain_lock);
}

/*
 * The CPUs that may hold translations of the guest's page tables: those
 * running one of its vCPUs (blocked ones too).  A CPU leaving its vCPU
 * flushes everything first (vcpu_stop()), so it drops out safely.
 */
unsigned long __hot_text pv_domain_cpumask(void)
{
    unsigned long mask = 0;
    unsigned int i;

    for ( i = 0; i < dom.max_vcpus; i++ )
        if ( ACCESS_ONCE(dom.vcpu[i].running) )
            mask |= 1UL << i;
    return mask;
}

/*
 * Xen's vcpu_kick(): a vCPU running on another CPU looks at its events
 * at its next exit to the guest, so make it exit (or wake from its halt).
 */
void __hot_text vcpu_kick(struct vcpu *v)
{
    if ( v->running && v->id != smp_processor_id() )
        send_IPI_mask(1UL << v->id, EVENT_CHECK_VECTOR);
}

/*
 * Segment selectors and bases as @v had them (none yet loaded here): the
 * selectors first, then a 64-bit vCPU's bases, which the selectors' loads
 * may have changed (Xen's load_segments()).  A selector the guest chose
 * may name a descriptor it has since made not present or removed
 * (update_descriptor before VCPUOP_up): the load faults in the shim, and
 * the register is left null instead, as Xen's loadsegment() fix-up does;
 * false then (Xen's !all_segs_okay).  One in the LDT maps the LDT's page
 * on the way (ldt_fault_shim() in pv/descriptor-tables.c).
 */
static bool load_segments(struct vcpu *v)
{
    const uint16_t *sel = v->data_sel;
    bool swap = !dom.compat && v->kernel_mode, ok, fs_ok, gs_ok;

    loadsegment(ds, sel[0]);
    loadsegment(es, sel[1]);
    loadsegment(fs, sel[2]);
    /* A 64-bit kernel's %gs selector is its user's: load it as theirs. */
    if ( swap )
        swapgs();
    loadsegment(gs, sel[3]);
    fs_ok = read_sreg(fs) == sel[2];
    gs_ok = read_sreg(gs) == sel[3];
    ok = read_sreg(ds) == sel[0] && read_sreg(es) == sel[1] && fs_ok &&
         gs_ok;
    if ( dom.compat )
        return ok;
    /*
     * As Xen's: a base of 0 with a selector loaded is the descriptor's
     * (VCPUOP_initialise keeps a base only with a null selector).  One
     * that failed to load is NUL, whose load on AMD kept the old base:
     * written then too.
     */
    if ( v->fs_base || !(sel[2] & ~3) || !fs_ok )
        wrmsr(MSR_FS_BASE, v->fs_base);
    if ( v->gs_base_user || !(sel[3] & ~3) || !gs_ok )
        wrmsr(MSR_GS_BASE, v->gs_base_user);
    wrmsr(MSR_SHADOW_GS_BASE, v->gs_base_kernel);
    if ( swap )
        swapgs();
    return ok;
}

/*
 * The other half, as Xen's save_segments(): @v (this CPU's) leaves it
 * with the selectors and bases the CPU holds, which the guest changes
 * without the shim seeing (a selector load sets its base; a 64-bit
 * kernel's wrmsr and set_segment_base pass through, but a user's
 * `mov %fs` does not).
 */
static void save_segments(struct vcpu *v)
{
    v->data_sel[0] = read_sreg(ds);
    v->data_sel[1] = read_sreg(es);
    v->data_sel[2] = read_sreg(fs);
    v->data_sel[3] = read_sreg(gs);
    if ( dom.compat )
        return;
    v->fs_base = rdmsr(MSR_FS_BASE);
    *(v->kernel_mode ? &v->gs_base_kernel : &v->gs_base_user) =
        rdmsr(MSR_GS_BASE);
    *(v->kernel_mode ? &v->gs_base_user : &v->gs_base_kernel) =
        rdmsr(MSR_SHADOW_GS_BASE);
}

/*
 * Xen's load_segments() when a selector would not load: the vCPU goes to
 * its failsafe callback, the selectors it had on the frame (the guest
 * crashed if it has none).
 */
static void failsafe_callback(struct vcpu *v, struct cpu_regs *regs)
{
    printk(XENLOG_DEBUG "d1v%u: a data selector of %04x %04x %04x %04x "
           "won't load: its failsafe callback\n", v->id, v->data_sel[0],
           v->data_sel[1], v->data_sel[2], v->data_sel[3]);
    pv_bounce_to(regs, v->failsafe_callback_cs, v->failsafe_callback_eip,
                 TBF_FAILSAFE |
                 (v->failsafe_disables_events ? TBF_INTERRUPT : 0), 0);
}

/*
 * This CPU starts (or resumes) running its vCPU @v, under the domain
 * lock: the syscall entries and CR4, the page tables, descriptor tables,
 * segment bases and debug registers of @v, and the registers it starts
 * or resumes from.  The lock goes on the way into the guest.
 */
static noreturn void vcpu_start(struct vcpu *v)
{
    struct cpu_info *ci = get_cpu_info();
    bool segs_ok;

    ASSERT(spin_is_locked_by_me(&dom.domain_lock));
    ASSERT(v->id == smp_processor_id());
    if ( !v->started )
    {
        pv_cr_init(v);                  /* XCR0 as a new Xen vCPU's */
        clts();
        fxrstor(v->fpu_start);
    }
    v->started = true;
    pv_cpu_init();
    v->running = true;
    load_cr3(pv_vcpu_cr3(v));
    pv_load_gdt(v);
    pv_load_ldt(v);
    /*
     * Interrupts on while the loads may fault, as Xen's context_switch()
     * has them: an LDT page is mapped only so (ldt_fault_shim()).  The
     * exit looks for what they left.
     */
    local_irq_enable();
    segs_ok = load_segments(v);
    local_irq_disable();
    pv_load_debugregs(v);
    if ( v->ctrlreg0_ts )
        stts();
    else
        clts();
    ci->guest_regs = v->start_regs;
    if ( !segs_ok )
        failsafe_callback(v, &ci->guest_regs);
    pv_time_vcpu_start(v);
    vcpu_runstate_change(v, RUNSTATE_running);
    pv_enter_guest();
}

/*
 * @v (this CPU's) is down: keep its registers and segments for VCPUOP_up
 * (where it resumes as it was, as on Xen), leave its
 * page tables for the shim's own, flushing every translation, global
 * ones too (so this CPU can drop out of pv_domain_cpumask()), and go back
 * to the idle loop on a fresh stack.  Its timers keep running, as Xen's
 * do for a vCPU that is down; their events wait for it.
 */
static noreturn void vcpu_stop(struct vcpu *v, const struct cpu_regs *regs)
{
    ASSERT(spin_is_locked_by_me(&dom.domain_lock));
    v->start_regs = *regs;
    save_segments(v);
    v->blocked = v->polling = false;    /* downed in SCHEDOP_block/poll */
    vcpu_runstate_change(v, RUNSTATE_offline);
    switch_cr3(__pa(shim_l4()));
    v->running = false;
    pv_domain_unlock();
    reset_stack_and_call(idle_loop);
}

/* On the way out to the guest, lock held: has this vCPU gone down? */
void pv_vcpu_check_down(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();

    if ( unlikely(v->down) )
        vcpu_stop(v, regs);
}

/*
 * Softirqs on the guest's side (its exits, a vCPU asleep, the idle
 * loop), each with the lock it needs.  The timers' with none, as Xen
 * runs them: their handlers raise VIRQs under the ports' locks
 * (raise_virq()), wake pollers with atomics, re-arm timers under the
 * timer locks and raise the drivers' softirqs; the guest's time
 * refresh, which another vCPU's VCPUOPs may move, takes the domain lock
 * itself.  The backends' and the drivers' completions (which call into
 * them) reading the backends' lock (each under its device's own lock, so
 * completions on several CPUs run at once), as dom0's backends run
 * beside the guest and not under its locks.  The debug keys, which read
 * the whole domain, under the domain lock.
 */
#define LOCK_FREE_SOFTIRQS  ((1UL << TIMER_SOFTIRQ) | (1UL << NMI_SOFTIRQ))
#define DOMAIN_SOFTIRQS     (1UL << KEYPRESS_SOFTIRQ)
#define BACKEND_SOFTIRQS    (~(LOCK_FREE_SOFTIRQS | DOMAIN_SOFTIRQS))

void __hot_text pv_do_softirq(void)
{
    bool taken;

    for ( ;; )
    {
        do_softirq_mask(LOCK_FREE_SOFTIRQS);
        if ( softirq_pending_mask(BACKEND_SOFTIRQS) )
        {
            /*
             * One round under the lock: a backend with more than its
             * budget raises itself again, and a guest keeping its rings
             * full would otherwise hold the lock (its writers waiting)
             * and this CPU's timers off for as long as it liked.
             */
            taken = pv_backends_read_lock_unless_held();
            do_softirq_once(BACKEND_SOFTIRQS);
            pv_backends_unlock_taken(taken);
        }
        else if ( softirq_pending_mask(DOMAIN_SOFTIRQS) )
        {
            ASSERT(!pv_backend_locked());
            taken = pv_domain_lock_unless_held();
            do_softirq_mask(DOMAIN_SOFTIRQS);
            pv_domain_unlock_taken(taken);
        }
        else
            break;
    }
}

/*
 * CPU n's idle loop, once the guest exists: its softirqs (timers of a
 * vCPU that is down, the backends on CPU 0), and its vCPU, if that is
 * up, entered for good, under the domain lock (VCPUOP_up sets it up
 * under it, then kicks this CPU).
 */
void pv_idle_work(void)
{
    unsigned int cpu = smp_processor_id();
    struct vcpu *v = &dom.vcpu[cpu];

    pv_do_softirq();
    if ( cpu >= dom.max_vcpus || !ACCESS_ONCE(v->is_initialised) ||
         ACCESS_ONCE(v->down) )
        return;
    pv_domain_lock();
    if ( v->is_initialised && !v->down )
        vcpu_start(v);
    pv_domain_unlock();
}

/*
 * shared_info's arch.nmi_reason, in the guest's layout: @reasons set in
 * it, its value before (0 to only read it).
 */
static unsigned long nmi_reason_fetch_or(unsigned int reasons)
{
    BUILD_BUG_ON(COMPAT_MSIZE(shared_info, arch__nmi_reason) != 4);
    if ( dom.compat )
        return __atomic_fetch_or((uint32_t *)compat_ptr(dom.shared_info,
                                                        shared_info,
                                                        arch__nmi_reason),
                                 reasons, __ATOMIC_SEQ_CST);
    return __atomic_fetch_or(&dom.shared_info->arch.nmi_reason, reasons,
                             __ATOMIC_SEQ_CST);
}

/*
 * The host's NMI (nmi=guest): to vCPU 0 with its reasons in shared_info
 * (XEN_NMIREASON_*, which Linux's xen_get_nmi_reason() reads as port
 * 0x61's bits), as Xen's nmi_hwdom_report() hands dom0 one; left set, as
 * Xen leaves them.  VCPUOP_send_nmi's atomics: no lock.
 */
static void nmi_to_guest(unsigned int reasons)
{
    struct vcpu *v = &dom.vcpu[0];

    nmi_reason_fetch_or(reasons);
    if ( !__atomic_exchange_n(&v->nmi_pending, true, __ATOMIC_SEQ_CST) )
        vcpu_unblock(v);
}

/* The 'n' key's last line, as Xen's do_nmi_stats(): vCPU 0's NMI state. */
static void nmi_stats_guest(void)
{
    const struct vcpu *v = &dom.vcpu[0];
    bool pend = ACCESS_ONCE(v->nmi_pending), mask = ACCESS_ONCE(v->nmi_masked);

    if ( pend || mask )
        printk("d1v0: NMI%s%s\n", pend ? " pending" : "",
               mask ? " masked" : "");
    else
        printk("d1v0: NMI neither pending nor masked\n");
}

/*
 * Xen's register_guest_nmi_callback(): an NMI that came before vCPU 0
 * had a callback was dropped ("the NMI edge lost"): its reason left in
 * shared_info raises it again.
 */
void pv_nmi_callback_registered(struct vcpu *v)
{
    if ( v->id == 0 && nmi_reason_fetch_or(0) )
        __atomic_store_n(&v->nmi_pending, true, __ATOMIC_SEQ_CST);
}

/* CPU 0 enters vCPU 0, which the builder made: from here on, the lock. */
noreturn void pv_start_guest(void)
{
    struct vcpu *v = &dom.vcpu[0];

    trap_set_nmi_forward(nmi_to_guest, nmi_stats_guest);

    idle_set_work(pv_idle_work);
    pv_domain_lock();
    pv_cpu_init();
    ASSERT(v->running);
    /*
     * Its data selectors, as every other start loads them: left as the
     * shim's (DPL 0), the entry's iretq would null them, a 32-bit
     * kernel's %ds with them, and on hardware its first access faults.
     * The builder's flat ones always load.
     */
    (void)load_segments(v);
    pv_enter_guest();
}
