/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercall dispatch: a switch of direct calls (no table of function
 * pointers, so no indirect branch on the hypercall path), as Xen and
 * Linux do it since 2022.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include <xen/sched.h>
#include <xen/version.h>
#include "pv/domain.h"
#include "pv/pv.h"
#include "pv/entry.h"
#include "pv/event/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/traps.h"
#include "arch/x86/percpu.h"
#include "shim/param.h"
#include "shim/panic.h"
#include "pv/mm/mm.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"
#include "arch/x86/spec-ctrl.h"
#include "shim/perfc.h"

/*
 * The hypercalls that take or drop frame references (mm-audit checks the
 * frame table after each): the MMU's, grants (maps hold references, copy
 * and transfer take them), memory_op (frames given back and taken), vCPU
 * and event ops (vcpu_info, FIFO control blocks and event arrays hold
 * writable frames), and multicall, whatever it ran.
 */
static bool is_mmu_hypercall(unsigned long nr)
{
    switch ( nr )
    {
    case __HYPERVISOR_mmu_update:
    case __HYPERVISOR_mmuext_op:
    case __HYPERVISOR_update_va_mapping:
    case __HYPERVISOR_update_va_mapping_otherdomain:
    case __HYPERVISOR_set_gdt:
    case __HYPERVISOR_update_descriptor:
    case __HYPERVISOR_grant_table_op:
    case __HYPERVISOR_memory_op:
    case __HYPERVISOR_vcpu_op:
    case __HYPERVISOR_event_channel_op:
    case __HYPERVISOR_event_channel_op_compat:
    case __HYPERVISOR_multicall:
        return true;
    default:
        return false;
    }
}

/*
 * hypercall-batch=<integer>: how many entries of a batched hypercall
 * (mmu_update, mmuext_op) one invocation handles before it continues
 * itself, so the guest can't hold the CPU for long; 0 never preempts.
 */
unsigned int __read_mostly opt_hypercall_batch = 512;
integer_param("hypercall-batch", opt_hypercall_batch);

/*
 * Make the guest issue hypercall @nr again, with these arguments, when it
 * next runs: back over its 2-byte `syscall`, as Xen's continuations do.
 * The handler returns what this returns (the number), which lands in
 * %rax for the re-issue.  In a multicall's entry, the entry's arguments
 * are rewritten instead, and the batch continues from that entry
 * (pv/multicall.c; the number returned is no result of the entry's).
 */
unsigned long hypercall_create_continuation(unsigned long nr,
                                            unsigned long a0,
                                            unsigned long a1,
                                            unsigned long a2,
                                            unsigned long a3)
{
    struct cpu_regs *regs = &get_cpu_info()->guest_regs;
    struct vcpu *v = current_vcpu();

    if ( v->in_multicall )
    {
        multicall_entry_t *call = v->mc_call;

        ASSERT(call && call->op == nr && !v->mc_preempted);
        call->args[0] = a0;
        call->args[1] = a1;
        call->args[2] = a2;
        call->args[3] = a3;
        v->mc_preempted = true;
        return nr;
    }
    regs->rip -= 2;                     /* syscall, or int $0x82 */
    if ( dom.compat )
    {
        regs->rbx = (uint32_t)a0;
        regs->rcx = (uint32_t)a1;
        regs->rdx = (uint32_t)a2;
        regs->rsi = (uint32_t)a3;
        return nr;
    }
    regs->rdi = a0;
    regs->rsi = a1;
    regs->rdx = a2;
    regs->r10 = a3;
    return nr;
}

/*
 * An unimplemented hypercall: counted for the report at exit, and named
 * once per number (debug level) so that bringing up a kernel shows what
 * it misses; numbers past Xen's 64 share one line, so no guest can flood
 * the console.
 */
static noinline void unknown_hypercall(unsigned long nr)
{
    static uint64_t said;
    static bool said_high;

    dom.unknown_hypercalls++;
    if ( nr < 64 ? (said & (1ULL << nr)) : said_high )
        return;
    if ( nr < 64 )
        said |= 1ULL << nr;
    else
        said_high = true;
    printk(XENLOG_DEBUG "d1: hypercall %lu not implemented: -ENOSYS\n", nr);
}

/* A 64-bit value a 32-bit guest passes in two registers, low first. */
#define ARG64(lo, hi)   ((lo) | ((uint64_t)(hi) << 32))

/*
 * Argument @i of a hypercall: a multicall entry's, from @args, or with
 * @args NULL (the entries: a constant) from the register the ABI passes
 * it in, %rdi %rsi %rdx %r10 %r8 %r9, or a 32-bit guest's %ebx %ecx %edx
 * %esi %edi %ebp zero-extended, each read by the case that wants it: a
 * hypercall that reads one argument loads one.
 */
static always_inline unsigned long arg(const struct cpu_regs *regs,
                                       const unsigned long *args,
                                       unsigned int i, bool compat)
{
    if ( args )
        return args[i];
    switch ( i )
    {
    case 0: return compat ? (uint32_t)regs->rbx : regs->rdi;
    case 1: return compat ? (uint32_t)regs->rcx : regs->rsi;
    case 2: return compat ? (uint32_t)regs->rdx : regs->rdx;
    case 3: return compat ? (uint32_t)regs->rsi : regs->r10;
    case 4: return compat ? (uint32_t)regs->rdi : regs->r8;
    default: return compat ? (uint32_t)regs->rbp : regs->r9;
    }
}

/*
 * Arguments are taken at the width Xen's handler declares
 * (xen/include/hypercall-defs.c): an `int` or `unsigned int` parameter
 * sees only the low 32 bits of the guest's register, so bit 32 set in a
 * command or a count changes nothing, exactly as on Xen.  @compat is a
 * constant at each call site (the `syscall` and `int $0x82` entries), so
 * each handler's variant is chosen at compile time: no "is this a 32-bit
 * guest?" test, and no barrier behind one, on either path.
 *
 * The domain lock (docs/architecture.md, "The domain lock") is taken
 * here, by the cases that still need it, held then to the exit, which
 * drops it (pv_domain_lock_to_exit(): a multicall's later entries find
 * it held); every other hypercall takes only its own locks, as on Xen,
 * and the hot ones pay nothing for the ones that don't.
 */
static always_inline long dispatch(struct cpu_regs *regs, unsigned long nr,
                     const unsigned long *args, bool in_multicall,
                     bool compat)
{
/* Argument i, read where the case needs it (arg()). */
#define A(i) arg(regs, args, i, compat)

    perfc_incra(hypercalls, nr);
    switch ( nr )
    {
    case __HYPERVISOR_set_trap_table:
        return compat ? compat_set_trap_table(A(0)) : do_set_trap_table(A(0));
    case __HYPERVISOR_mmu_update:
        return do_mmu_update(A(0), A(1), A(2), A(3));
    case __HYPERVISOR_mmuext_op:
        return compat ? compat_mmuext_op(A(0), A(1), A(2), A(3))
                      : do_mmuext_op(A(0), A(1), A(2), A(3));
    case __HYPERVISOR_update_va_mapping:
        return compat ? do_update_va_mapping(A(0), ARG64(A(1), A(2)), A(3))
                      : do_update_va_mapping(A(0), A(1), A(2));
    case __HYPERVISOR_update_va_mapping_otherdomain:
        pv_domain_lock_to_exit();
        return compat ? do_update_va_mapping_otherdomain(
                            A(0), ARG64(A(1), A(2)), A(3), A(4))
                      : do_update_va_mapping_otherdomain(A(0), A(1), A(2),
                                                         A(3));
    case __HYPERVISOR_set_gdt:
        pv_domain_lock_to_exit();
        return compat ? compat_set_gdt(A(0), (unsigned int)A(1))
                      : do_set_gdt(A(0), (unsigned int)A(1));
    case __HYPERVISOR_stack_switch:
        return do_stack_switch(A(0), A(1));
    case __HYPERVISOR_set_callbacks:
        return compat ? compat_set_callbacks(A(0), A(1), A(2), A(3))
                      : do_set_callbacks(A(0), A(1), A(2));
    case __HYPERVISOR_fpu_taskswitch:
        return do_fpu_taskswitch((unsigned int)A(0));
    case __HYPERVISOR_sched_op_compat:
        return do_sched_op_compat((unsigned int)A(0), A(1));
    case __HYPERVISOR_set_debugreg:
        return do_set_debugreg((unsigned int)A(0), A(1));
    case __HYPERVISOR_get_debugreg:
        return do_get_debugreg((unsigned int)A(0));
    case __HYPERVISOR_update_descriptor:
        return compat ? do_update_descriptor(ARG64(A(0), A(1)),
                                             ARG64(A(2), A(3)))
                      : do_update_descriptor(A(0), A(1));
    case __HYPERVISOR_memory_op:
        return compat ? compat_memory_op(A(0), A(1))
                      : do_memory_op(A(0), A(1));
    case __HYPERVISOR_multicall:
        /* Xen refuses to nest: the entry fails, the batch goes on. */
        if ( in_multicall )
            return -XEN_EINVAL;
        return compat ? compat_multicall(A(0), A(1))
                      : do_multicall(A(0), A(1)); /* unsigned long, Xen 4.19 */
    case __HYPERVISOR_set_timer_op:
        return do_set_timer_op(compat ? ARG64(A(0), A(1)) : A(0));
    case __HYPERVISOR_event_channel_op_compat:
        return do_event_channel_op_compat(A(0));
    case __HYPERVISOR_grant_table_op:
        return compat ? compat_grant_table_op(A(0), A(1), A(2))
                      : do_grant_table_op((unsigned int)A(0), A(1),
                                          (unsigned int)A(2));
    case __HYPERVISOR_xen_version:
        /* The hot one, inline (pv/version.c answers the rest). */
        if ( (unsigned int)A(0) == XENVER_version )
            return (XEN_MAJOR << 16) | XEN_MINOR;
        return compat ? compat_xen_version((unsigned int)A(0), A(1))
                      : do_xen_version((unsigned int)A(0), A(1));
    case __HYPERVISOR_console_io:
        return do_console_io((unsigned int)A(0), (unsigned int)A(1), A(2));
    case __HYPERVISOR_vm_assist:
        return do_vm_assist((unsigned int)A(0), (unsigned int)A(1));
    case __HYPERVISOR_iret:
        /* In a multicall it ends the batch (pv/multicall.c). */
        return compat ? compat_iret(regs) : do_iret(regs);
    case __HYPERVISOR_vcpu_op:
        if ( !pv_vcpu_op_lock_free(A(0), A(1)) )
            pv_domain_lock_to_exit();
        return compat ? compat_vcpu_op(A(0), A(1), A(2))
                      : do_vcpu_op((unsigned int)A(0), (unsigned int)A(1),
                                   A(2));
    case __HYPERVISOR_set_segment_base:
        if ( compat )                   /* 64-bit guests only, as Xen */
            break;
        return do_set_segment_base((unsigned int)A(0), A(1));
    case __HYPERVISOR_sched_op:
        return compat ? compat_sched_op(A(0), A(1))
                      : do_sched_op((unsigned int)A(0), A(1));
    case __HYPERVISOR_callback_op:
        return compat ? compat_callback_op((unsigned int)A(0), A(1))
                      : do_callback_op((unsigned int)A(0), A(1));
    case __HYPERVISOR_nmi_op:
        return compat ? compat_nmi_op((unsigned int)A(0), A(1))
                      : do_nmi_op((unsigned int)A(0), A(1));
    case __HYPERVISOR_event_channel_op:
        return do_event_channel_op((unsigned int)A(0), A(1));
    case __HYPERVISOR_physdev_op:
        return compat ? compat_physdev_op(A(0), A(1))
                      : do_physdev_op((unsigned int)A(0), A(1));
    case __HYPERVISOR_platform_op:
        return do_platform_op(A(0));
    case __HYPERVISOR_sysctl:
        return do_sysctl(A(0));
    case __HYPERVISOR_domctl:
        return do_domctl(A(0));
    case __HYPERVISOR_xenpmu_op:
        return do_xenpmu_op((unsigned int)A(0), A(1));
    }
    unknown_hypercall(nr);
    return -XEN_ENOSYS;
#undef A
}

/*
 * mm-audit: the frame table must add up after every such hypercall (or
 * every opt_mm_audit-th of them, counted over all vCPUs), walked under
 * the domain lock with every other vCPU paused (the MMU's hypercalls run
 * without the lock).
 */
static void audit_after(unsigned long nr, long rc)
{
    static unsigned long calls;
    bool locked = pv_domain_locked(), taken, backends;
    long bad;

    if ( !is_mmu_hypercall(nr) )
        return;
    /*
     * Of those run without the lock, only the MMU's (update_descriptor
     * among them), memory_op, the grant table's and the FIFO ABI's
     * set-up change references (a vCPU's timer ops touch no frame, nor
     * do mmuext_op's flushes or the other EVTCHNOPs; a multicall's
     * entries were audited each).
     */
    if ( !locked && nr != __HYPERVISOR_mmu_update &&
         nr != __HYPERVISOR_update_va_mapping &&
         nr != __HYPERVISOR_update_descriptor &&
         (nr != __HYPERVISOR_memory_op || !pv_memory_op_changed_refs()) &&
         nr != __HYPERVISOR_grant_table_op &&
         (nr != __HYPERVISOR_mmuext_op || !pv_mmuext_changed_refs()) &&
         ((nr != __HYPERVISOR_event_channel_op &&
           nr != __HYPERVISOR_event_channel_op_compat) ||
          !pv_evtchn_changed_refs()) )
        return;
    if ( opt_mm_audit > 1 &&
         __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED) % opt_mm_audit )
        return;
    taken = pv_domain_lock_unless_held();
    pv_pause_others();
    backends = pv_backends_lock_unless_held(); /* their grant maps still */
    bad = pv_mm_audit();
    pv_backends_unlock_taken(backends);
    pv_unpause_others();
    pv_domain_unlock_taken(taken);
    if ( bad )
        panic("mm audit failed after hypercall %lu (rc %ld)", nr, rc);
}

/* For multicall's entries: in_multicall holds while one runs. */
static always_inline long do_hypercall(struct cpu_regs *regs, unsigned long nr,
                                       const unsigned long a[6],
                                       bool in_multicall, bool compat)
{
    struct vcpu *v = current_vcpu();
    bool outer = v->in_multicall;
    long rc;

    v->in_multicall = in_multicall;
    rc = dispatch(regs, nr, a, in_multicall, compat);
    v->in_multicall = outer;
    if ( unlikely(opt_mm_audit) )
        audit_after(nr, rc);
    return rc;
}

long __hot_text pv_do_hypercall(struct cpu_regs *regs, unsigned long nr,
                                const unsigned long a[6], bool in_multicall)
{
    return do_hypercall(regs, nr, a, in_multicall, false);
}

/* A 32-bit guest's, as its int $0x82 would be: @a zero-extended. */
long pv_do_compat_hypercall(struct cpu_regs *regs, unsigned long nr,
                            const unsigned long a[6], bool in_multicall)
{
    return do_hypercall(regs, nr, a, in_multicall, true);
}

/* The 64-bit PV ABI: %rax the number, %rdi %rsi %rdx %r10 %r8 %r9. */
static always_inline void native_hypercall(struct cpu_regs *regs)
{
    unsigned long nr = regs->rax;

    /* The hot path: straight to the switch (never inside a multicall). */
    regs->rax = dispatch(regs, nr, NULL, false, false);
    if ( unlikely(opt_mm_audit) )
        audit_after(nr, regs->rax);
}

/*
 * The compat ABI: %eax the number, %ebx %ecx %edx %esi %edi %ebp the
 * arguments, the result in %eax, each register's upper half ignored.
 */
static always_inline void compat_hypercall(struct cpu_regs *regs)
{
    unsigned long nr = (uint32_t)regs->rax;

    current_vcpu()->kernel_mode = true;
    regs->rax = (uint32_t)dispatch(regs, nr, NULL, false, true);
    if ( unlikely(opt_mm_audit) )
        audit_after(nr, (int32_t)regs->rax);
}

#ifdef CONFIG_UNIFIED_HYPERCALL
/*
 * configs/unified.config, for make bench only: the "before" of the split
 * entries, Xen's pv_hypercall() before 2022, one out-of-line dispatcher
 * for both entries that asks at run time whose ABI it serves, and the
 * lfence speculation hardening puts behind that question.
 */
static noinline void __hot_text pv_hypercall(struct cpu_regs *regs)
{
    if ( evaluate_nospec(dom.compat) )
        compat_hypercall(regs);
    else
        native_hypercall(regs);
}
#define native_hypercall pv_hypercall
#define compat_hypercall pv_hypercall
#endif

/*
 * syscall from the guest.  From its kernel, a hypercall: %rax the number,
 * %rdi %rsi %rdx %r10 %r8 %r9 the arguments (the 64-bit PV ABI), result
 * in %rax.  From its user mode, the guest's own system call: bounce it to
 * the kernel's syscall callback (this vCPU's callbacks and frame only).
 * The exit's checks follow inline: a hypercall's exit has work only if
 * it wrote more of the frame than %rax or took the domain lock
 * (pv_hypercall_exit_work()).
 */
void __hot_text pv_syscall(struct cpu_regs *regs)
{
    unsigned long nr = regs->rax;

    if ( unlikely(!current_vcpu()->kernel_mode) )
    {
        pv_bounce_syscall(regs);
        __pv_exit_to_guest(regs, true);
        return;
    }
    native_hypercall(regs);
    __pv_exit_to_guest(regs, pv_hypercall_exit_work(nr));
}

/*
 * int $0x82 from a 32-bit guest's ring-1 kernel (the gate's DPL keeps
 * everyone else out): the same, with the compat ABI.
 */
void pv_int82(struct cpu_regs *regs)
{
    uint32_t nr = regs->rax;

    compat_hypercall(regs);
    __pv_exit_to_guest(regs, pv_hypercall_exit_work(nr));
}

/* batch_begin()'s and batch_end()'s rarer halves (pv/hypercall.h). */
unsigned int batch_continued(unsigned long *count, unsigned long pdone)
{
    unsigned int done = 0;

    *count &= ~MMU_UPDATE_PREEMPTED;
    if ( pdone )
        (void)copy_from_guest(&done, pdone, sizeof(done));
    return done;
}

void batch_write_done(unsigned long pdone, unsigned int done)
{
    (void)copy_to_guest(pdone, &done, sizeof(done));
}

/*
 * Xen's 32-bit one (hypercall_page_initialise_ring1_kernel): stub N is
 * `mov $N,%eax; int $0x82; ret`; the iret stub `push %eax; mov $N,%eax;
 * int $0x82`, never returning.  The rest of the page is int3.
 */
static void fill_compat_hypercall_page(uint8_t *p)
{
    static const uint8_t call[] = { 0xb8, 0, 0, 0, 0, 0xcd, 0x82, 0xc3 };
    static const uint8_t iret[] = { 0x50, 0xb8, 0, 0, 0, 0, 0xcd, 0x82 };
    unsigned int i;

    memset(p, 0xcc, PAGE_SIZE);
    for ( i = 0; i < PAGE_SIZE / 32; i++, p += 32 )
    {
        if ( i == __HYPERVISOR_iret )
        {
            memcpy(p, iret, sizeof(iret));
            memcpy(p + 2, &i, 4);
        }
        else
        {
            memcpy(p, call, sizeof(call));
            memcpy(p + 1, &i, 4);
        }
    }
}

/*
 * Xen's 64-bit hypercall page (hypercall_page_initialise_ring3_kernel):
 * stub N at N * 32 is `push %rcx; push %r11; mov $N,%eax; syscall;
 * pop %r11; pop %rcx; ret`; the iret stub also pushes %rax and does not
 * return.  The rest of the page is int3.
 */
void pv_fill_hypercall_page(void *page, bool compat)
{
    uint8_t *p = page;
    unsigned int i;

    if ( compat )
    {
        fill_compat_hypercall_page(page);
        return;
    }
    memset(p, 0xcc, PAGE_SIZE);
    for ( i = 0; i < PAGE_SIZE / 32; i++, p += 32 )
    {
        static const uint8_t call[] = {
            0x51, 0x41, 0x53, 0xb8, 0, 0, 0, 0, 0x0f, 0x05, 0x41, 0x5b,
            0x59, 0xc3,
        };
        static const uint8_t iret[] = {
            0x51, 0x41, 0x53, 0x50, 0xb8, 0, 0, 0, 0, 0x0f, 0x05,
        };

        if ( i == __HYPERVISOR_iret )
        {
            memcpy(p, iret, sizeof(iret));
            memcpy(p + 5, &i, 4);
        }
        else
        {
            memcpy(p, call, sizeof(call));
            memcpy(p + 4, &i, 4);
        }
    }
}
