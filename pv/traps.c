/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exceptions the guest raises: emulate what Xen emulates, bounce the rest
 * to the guest kernel's handler on Xen's 64-bit PV frame
 * (xen/arch/x86/x86_64/entry.S create_bounce_frame):
 *
 *   guest kernel stack, 16-byte aligned, low to high:
 *     RCX, R11, [DS, ES, FS, GS], [error code], RIP,
 *     CS | upcall_mask << 32, RFLAGS, RSP, SS
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/apic.h"
#include "arch/x86/cr.h"
#include "arch/x86/eflags.h"
#include "arch/x86/exception.h"
#include "arch/x86/fpu.h"
#include "arch/x86/percpu.h"
#include "arch/x86/page.h"
#include "arch/x86/traps.h"
#include "pv/domain.h"
#include "pv/entry.h"
#include "pv/guest-access.h"
#include "pv/traps.h"
#include "pv/compat/layout.h"
#include "pv/descriptor-tables.h"
#include "pv/guest-mode.h"
#include "pv/lifecycle.h"
#include "pv/mm/frame-table.h"
#include "pv/mm/mm.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/perfc.h"

/* trap_info.flags bit 2: the handler runs with events masked. */
#define TI_CLEAR_EVENTS 4

static const char *const exc_names[32] = {
    "#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#09",
    "#TS", "#NP", "#SS", "#GP", "#PF", "#15", "#MF", "#AC", "#MC", "#XM",
    "#VE", "#CP",
};

static bool has_error_code(unsigned int v)
{
    return v == X86_EXC_DF || (v >= X86_EXC_TS && v <= X86_EXC_PF) ||
           v == X86_EXC_AC || v == X86_EXC_CP;
}

/*
 * Where Xen leaves by sysret (after a bounce frame, or an iret with
 * VGCF_in_syscall), the guest finds %rcx and %r11 holding its %rip and
 * %rflags as it resumes: set them so for our iretq.
 */
void __hot_text pv_sysret_regs(struct cpu_regs *regs)
{
    regs->rcx = regs->rip;
    regs->r11 = (regs->rflags & ~(X86_EFLAGS_IOPL | X86_EFLAGS_VM)) |
                X86_EFLAGS_IF;
}

/*
 * Xen's create_bounce_frame.  From guest user mode the vCPU first
 * switches to kernel mode and the frame goes on the kernel stack
 * (stack_switch), its CS keeping RPL 3; from kernel mode it goes below
 * the interrupted %rsp, CS's RPL cleared.  RFLAGS.IF shows the event
 * mask, IOPL the virtual one under VMASST_TYPE_architectural_iopl.  The
 * guest leaves as Xen's sysret would (ENTRY_SYSCALL, pv_sysret_regs()).
 */
/*
 * Xen's compat_create_bounce_frame, for a 32-bit guest: from ring 2 or 3
 * the frame goes on the kernel stack (stack_switch's ss:esp) and carries
 * the interrupted esp and ss; from ring 1 below the interrupted esp:
 *
 *   guest kernel stack, low to high, 4 bytes each:
 *     [DS, ES, FS, GS], [error code], EIP, CS | upcall_mask << 16,
 *     EFLAGS, [ESP, SS]
 *
 * The handler runs at @cs:@eip (the trap table's or callback's selector,
 * never a null one).  The stack segment is taken as flat, as every
 * 32-bit PV kernel has it.
 */
static void compat_bounce_frame(struct cpu_regs *regs, unsigned int cs,
                                unsigned long eip, unsigned int flags,
                                uint32_t error_code)
{
    struct vcpu *v = current_vcpu();
    uint8_t mask = v->vcpu_info->evtchn_upcall_mask;
    bool outer = regs->cs & 2;
    uint32_t frame[10], sp, ss, eflags;
    unsigned int n = 0, i;

    if ( !(cs & ~3) )
        domain_crash("bounce to a null selector (%#x:%#lx)", cs, eip);
    sp = outer ? v->kernel_sp : regs->rsp;
    ss = outer ? v->kernel_ss : regs->ss;
    eflags = (regs->rflags & ~(X86_EFLAGS_IF | X86_EFLAGS_IOPL)) |
             (mask ? 0 : X86_EFLAGS_IF);
    if ( dom.vm_assist & (1UL << VMASST_TYPE_architectural_iopl) )
        eflags |= v->iopl;

    if ( flags & TBF_FAILSAFE )
        for ( i = 0; i < ARRAY_SIZE(v->data_sel); i++ )
            frame[n++] = v->data_sel[i];
    if ( flags & TBF_EXCEPTION_ERRCODE )
        frame[n++] = error_code;
    frame[n++] = regs->rip;
    frame[n++] = (regs->cs & 0xffff) | ((uint32_t)mask << 16);
    frame[n++] = eflags;
    if ( outer )
    {
        frame[n++] = regs->rsp;
        frame[n++] = regs->ss;
    }
    sp -= n * sizeof(frame[0]);
    if ( copy_to_guest(sp, frame, n * sizeof(frame[0])) )
        domain_crash("fault writing the bounce frame for %#lx at %#x "
                     "(guest stack unusable, handler cs %#x)", eip, sp, cs);

    if ( flags & TBF_INTERRUPT )
        v->vcpu_info->evtchn_upcall_mask = 1;
    regs->rflags &= ~(X86_EFLAGS_VM | X86_EFLAGS_RF | X86_EFLAGS_NT |
                      X86_EFLAGS_TF);
    regs->ss = ss;
    regs->rsp = sp;
    regs->cs = cs;
    regs->rip = (uint32_t)eip;
    /*
     * Out by iretq, never sysretq, whatever entry this was (a cstar or
     * sysenter one is marked for it): sysretq loads a 64-bit CS by
     * number, so a 32-bit guest whose handler names 0xe033 (its
     * FLAT_RING3_DS, a 64-bit kernel's code selector) would run 64-bit
     * code; iretq checks the descriptor, as Xen's compat exit does.
     */
    regs->entry_vector &= ~ENTRY_SYSCALL;
    v->kernel_mode = true;
}

void __hot_text pv_create_bounce_frame(struct cpu_regs *regs, unsigned long eip,
                                       unsigned int flags, uint32_t error_code)
{
    pv_bounce_to(regs, COMPAT_FLAT_KERNEL_CS, eip, flags, error_code);
}

void __hot_text pv_bounce_to(struct cpu_regs *regs, unsigned int handler_cs,
                             unsigned long eip, unsigned int flags,
                             uint32_t error_code)
{
    struct vcpu *v = current_vcpu();
    uint8_t mask = v->vcpu_info->evtchn_upcall_mask;
    unsigned long frame[12], sp, cs = regs->cs, rflags;
    unsigned int n = 0, i;

    if ( !eip )
        domain_crash("bounce to a null handler (flags %#x, error code %#x)",
                     flags, error_code);
    if ( dom.compat )
    {
        compat_bounce_frame(regs, handler_cs, eip, flags, error_code);
        return;
    }
    if ( !v->kernel_mode )
    {
        pv_toggle_guest_mode(v);
        sp = v->kernel_sp;
    }
    else
    {
        sp = regs->rsp;
        cs &= ~3UL;                     /* tells the guest: kernel context */
    }
    sp &= ~0xfUL;

    rflags = (regs->rflags & ~(X86_EFLAGS_IF | X86_EFLAGS_IOPL)) |
             (mask ? 0 : X86_EFLAGS_IF);
    if ( dom.vm_assist & (1UL << VMASST_TYPE_architectural_iopl) )
        rflags |= v->iopl;

    frame[n++] = regs->rcx;
    frame[n++] = regs->r11;
    if ( flags & TBF_FAILSAFE )
        for ( i = 0; i < ARRAY_SIZE(v->data_sel); i++ )
            frame[n++] = v->data_sel[i];
    if ( flags & TBF_EXCEPTION_ERRCODE )
        frame[n++] = error_code;
    frame[n++] = regs->rip;
    frame[n++] = cs | ((unsigned long)mask << 32);
    frame[n++] = rflags;
    frame[n++] = regs->rsp;
    frame[n++] = regs->ss;

    sp -= n * sizeof(frame[0]);
    if ( copy_to_guest(sp, frame, n * sizeof(frame[0])) )
        domain_crash("fault writing the bounce frame for %#lx at %#lx "
                     "(guest stack unusable)", eip, sp);

    if ( flags & TBF_INTERRUPT )
        v->vcpu_info->evtchn_upcall_mask = 1;
    regs->entry_vector |= ENTRY_SYSCALL;
    regs->rflags &= ~(X86_EFLAGS_AC | X86_EFLAGS_VM | X86_EFLAGS_RF |
                      X86_EFLAGS_NT | X86_EFLAGS_TF);
    regs->ss = FLAT_KERNEL_SS;
    regs->rsp = sp;
    regs->cs = FLAT_KERNEL_CS;
    regs->rip = eip;
    pv_sysret_regs(regs);
}

void __hot_text pv_inject_exception(struct cpu_regs *regs, unsigned int vector,
                                    uint32_t error_code)
{
    const trap_info_t *ti = &current_vcpu()->trap_ctxt[vector];

    perfc_incr(exceptions_bounced);
    if ( !ti->address )
    {
        char cr2[32] = "";

        if ( vector == X86_EXC_PF )
            snprintf(cr2, sizeof(cr2), ", cr2 %#lx",
                     pv_guest_cr2(current_vcpu()));
        domain_crash("%s (vector %u, error code %#x%s) at %#lx with no "
                     "handler registered", vector < 32 && exc_names[vector]
                     ? exc_names[vector] : "exception", vector, error_code,
                     cr2, regs->rip);
    }
    pv_bounce_to(regs, ti->cs, ti->address, TBF_EXCEPTION |
                           (has_error_code(vector) ? TBF_EXCEPTION_ERRCODE
                                                   : 0) |
                           (ti->flags & TI_CLEAR_EVENTS ? TBF_INTERRUPT : 0),
                           error_code);
}

/*
 * Xen's permit_softint(): levels 1-2 let the kernel in, 3 everyone.  A
 * permitted vector with no handler crashes the guest, as Xen's null
 * bounce does.  `int $0x80` is Xen's fast path (entry_int80): delivered
 * whenever its entry has a handler, whatever the DPL.
 */
bool pv_inject_swint(struct cpu_regs *regs, unsigned int vector)
{
    const trap_info_t *ti = &current_vcpu()->trap_ctxt[vector];
    unsigned int dpl = ti->flags & 3;

    if ( vector == 0x80 && ti->address )
        dpl = 3;
    if ( dpl < (current_vcpu()->kernel_mode ? 1 : 3) )
        return false;
    if ( !ti->address )
        domain_crash("int $%#x at %#lx with no handler registered", vector,
                     regs->rip);
    pv_bounce_to(regs, ti->cs, ti->address, TBF_EXCEPTION |
                           (ti->flags & TI_CLEAR_EVENTS ? TBF_INTERRUPT : 0),
                           0);
    return true;
}

/*
 * iretq refused the frame the guest chose (pv/entry.S iret_fault, with
 * the guest's registers whole): as Xen's pre-exception table makes it,
 * the guest takes the fault as if raised at the frame's %rip, in the
 * mode the iret switched to.  An LDT page fault maps the page and
 * retries.
 */
void pv_iret_fault(struct cpu_regs *regs)
{
    pv_exception(regs);
}

/*
 * A #PF the shim itself may have to handle: a fault in this vCPU's LDT
 * window (pv_ldt_fault() maps the page: this vCPU's alone, no lock), or a
 * guest-kernel write to a present read-only page (pv_ptwr_fault(): one
 * of its page tables, with writable page tables; under the table's page
 * lock, as Xen's ptwr emulation, no domain lock).  Every other #PF (a
 * user-mode fault, a page not present) is the guest's, bounced without
 * a lock.
 */
static bool pf_may_be_ptwr(const struct vcpu *v, const struct cpu_regs *regs)
{
    return v->kernel_mode &&
           (regs->error_code & (PFEC_page_present | PFEC_write_access)) ==
           (PFEC_page_present | PFEC_write_access);
}

/*
 * A kernel that takes the same page fault again and again, each time
 * bounced, is stuck: a guest that takes the fault as spurious (its own
 * walk of its tables allows the access) while the walk the CPU makes
 * does not, or a guest bug.  Say so once per such fault (its
 * PF_REPEATS_SAID-th bounce in a row, the same %rip and address), with
 * the CPU's walk of the address and the frame table's view of each
 * table, so that a hang has its cause on the console.
 */
#define PF_REPEATS_SAID     100000

static void pf_repeats_say(const struct vcpu *v, const struct cpu_regs *regs,
                           unsigned long addr)
{
    unsigned long mfn = (read_cr3() & PADDR_MASK) >> PAGE_SHIFT;
    const struct page_info *pg;
    uint64_t e;
    int level;

    printk(XENLOG_WARNING "d1v%u: kernel #PF at %lx (rip %lx, error %#x) "
           "bounced %u times in a row; the CPU's walk:\n", v->id, addr,
           regs->rip, (unsigned int)regs->error_code, PF_REPEATS_SAID);
    for ( level = 4; level >= 1; level-- )
    {
        pg = mfn_to_page(mfn);
        /* Below the root (the shim's, for a 32-bit guest): the guest's. */
        if ( !pg || (level < 4 && !guest_table_frame(mfn)) )
        {
            printk(XENLOG_WARNING "  L%d table %lx: not a guest frame\n",
                   level, mfn);
            return;
        }
        e = ACCESS_ONCE(((const uint64_t *)__va(mfn << PAGE_SHIFT))
                            [(addr >> (12 + 9 * (level - 1))) & 511]);
        printk(XENLOG_WARNING "  L%d table %lx (count %#lx type %#lx): "
               "entry %#lx\n", level, mfn, (unsigned long)page_cinfo(pg),
               (unsigned long)page_tinfo(pg), (unsigned long)e);
        if ( !(e & _PAGE_PRESENT) || (level > 1 && (e & _PAGE_PSE)) )
            return;
        mfn = (e & PADDR_MASK) >> PAGE_SHIFT;
    }
    if ( (pg = mfn_to_page(mfn)) )
        printk(XENLOG_WARNING "  frame %lx (count %#lx type %#lx)\n", mfn,
               (unsigned long)page_cinfo(pg), (unsigned long)page_tinfo(pg));
}

static void pf_repeats_note(struct vcpu *v, const struct cpu_regs *regs,
                            unsigned long addr)
{
    if ( v->pf_rip != regs->rip || v->pf_addr != addr )
    {
        v->pf_rip = regs->rip;
        v->pf_addr = addr;
        v->pf_repeats = 0;
    }
    else if ( ++v->pf_repeats == PF_REPEATS_SAID )
        pf_repeats_say(v, regs, addr);
}

/*
 * A #BP whose int3 memory no longer holds: the guest patched it away
 * (Linux's text_poke_bp(), a kprobe or uprobe removed, a debugger's
 * breakpoint) while this vCPU ran into it, and the guest's handler,
 * finding no int3 there, will run the instruction again.  On hardware
 * that second run finds the new instruction.  QEMU's multi-threaded TCG
 * can instead keep a translation of the int3 made while the byte was
 * being written, which no later write invalidated: the vCPU then takes
 * that int3 for ever (Linux on 4 vCPUs locked up so, every CPU at one
 * jump label; tests/guests/text-poke-int3 shows it within a few
 * patches).  A write to the byte makes QEMU drop every translation
 * that covers it, so rewrite it as it is: a locked no-op through the
 * directmap, which cannot lose a write the guest makes meanwhile and
 * changes nothing on hardware.  Only a frame of the guest's is written:
 * a walk that races the guest's changes to its tables at worst rewrites
 * another of its bytes as they are.
 */
static void bp_stale_int3(struct vcpu *v, const struct cpu_regs *regs)
{
    unsigned long va = regs->rip - 1, l1, mfn;
    const struct page_info *pg;
    unsigned int idx;
    uint8_t insn[2];
    uint64_t pte;

    if ( copy_from_guest(&insn[1], va, 1) || insn[1] == 0xcc )
        return;
    /* `int $3` (cd 03) leaves %rip past its second byte. */
    if ( insn[1] == 0x03 && !copy_from_guest(&insn[0], va - 1, 1) &&
         insn[0] == 0xcd )
        return;
    if ( guest_l1_slot(v, va, &l1, &idx) )
        return;
    pte = ACCESS_ONCE(((uint64_t *)__va(l1 << PAGE_SHIFT))[idx]);
    mfn = (pte & PADDR_MASK) >> PAGE_SHIFT;
    pg = mfn_to_page(mfn);
    if ( !(pte & _PAGE_PRESENT) || !pg || page_owner(pg) != PGO_GUEST )
        return;
    __atomic_fetch_or((uint8_t *)__va(mfn << PAGE_SHIFT) +
                      (va & (PAGE_SIZE - 1)), 0, __ATOMIC_RELAXED);
    perfc_incr(stale_int3s);
}

/*
 * An exception the guest raised, with no domain lock: an LDT page mapped
 * (#PF) is this vCPU's own LDT; a page-table write is
 * emulated under the table's page lock alone, and a privileged
 * instruction (#GP) changes this vCPU's own state, a new CR3 as
 * NEW_BASEPTR takes it (the frame table's words), or the domain's I/O
 * latches (one word each, as Xen's).  The rest touches this vCPU's own
 * state and frame only (its trap table, callbacks, debug registers, FPU,
 * the bounce frame written through its page tables as the guest could),
 * as Xen's exception paths take no lock.  True if the exit has work
 * beyond its looks: the frame was written beyond what the guest's own
 * instruction could have written (%rip, the GPRs and the arithmetic
 * flags, all an emulated page-table write touches) and not made safe
 * (pv_bounce_exit_work()).
 */
static bool exception(struct cpu_regs *regs, unsigned int vec,
                      unsigned long cr2)
{
    struct vcpu *v = current_vcpu();

    switch ( vec )
    {
    case X86_EXC_UD:
        if ( pv_emulate_forced_cpuid(regs) )
            return true;
        break;
    case X86_EXC_GP:
        if ( pv_emulate_privileged_op(regs) )
        {
            perfc_incr(emulated_priv_ops);
            return true;
        }
        break;
    case X86_EXC_PF:
        perfc_incr(page_faults);
        if ( pv_in_ldt(v, cr2) && pv_ldt_fault(regs, cr2) )
        {
            perfc_incr(ldt_faults);
            return pv_bounce_exit_work();   /* mapped, or a #PF bounced */
        }
        else if ( pf_may_be_ptwr(v, regs) &&
                  pv_ptwr_fault(regs, cr2, regs->error_code) )
        {
            perfc_incr(ptwr_emulations);
            return false;
        }
        pv_set_guest_cr2(v, cr2);
        /* The kernel runs in ring 3: show it the fault as its own; one
         * from user mode keeps its U bit. */
        if ( v->kernel_mode )
        {
            pf_repeats_note(v, regs, cr2);
            regs->error_code &= ~PFEC_user_mode;
        }
        break;
    case X86_EXC_DB:
        pv_debug_trap_dr6(v);
        break;
    case X86_EXC_BP:
        bp_stale_int3(v, regs);
        break;
    case X86_EXC_NM:
        /* The guest's own lazy FPU switch (fpu_taskswitch): its TS. */
        if ( v->ctrlreg0_ts )
        {
            v->ctrlreg0_ts = 0;
            clts();
        }
        break;
    }

    pv_inject_exception(regs, vec, regs->error_code);
    return pv_bounce_exit_work();
}

void __hot_text pv_exception(struct cpu_regs *regs)
{
    unsigned int vec = regs->entry_vector;
    unsigned long cr2 = vec == X86_EXC_PF ? read_cr2() : 0;

    /*
     * An interrupt's handler runs without the domain lock (the holder may
     * be waiting for this very IPI, a TLB flush); the exit takes the lock
     * only if the handler left work for it (a softirq, the vCPU to take
     * down), so a flush or a halted waiter's kick costs the guest no wait
     * for the lock.
     */
    if ( vec >= 32 && regs == &get_cpu_info()->guest_regs )
    {
        do_IRQ(regs);
        __pv_exit_to_guest(regs, pv_domain_locked());
        return;
    }
    /*
     * An NMI in the guest (its frame moved off the IST stack by the
     * entry): noted, for its softirq on the way out (nmi=, arch/x86/
     * traps.c), with no lock, like an interrupt.
     */
    if ( vec == X86_EXC_NMI && regs == &get_cpu_info()->guest_regs )
    {
        do_trap(regs);
        __pv_exit_to_guest(regs, pv_domain_locked());
        /*
         * Out by iretq, whatever the exit's work bounced: only an iret
         * ends the CPU's blocking of NMIs (rcx and r11 are already the
         * guest's to lose where a bounce marked the frame for sysretq).
         */
        regs->entry_vector &= ~ENTRY_SYSCALL;
        return;
    }
    pv_compat_entry_mode(current_vcpu(), regs);
    perfc_incra(exceptions, vec);

    /* NMI, #DF, #MC run on IST stacks: not a guest matter. */
    if ( regs != &get_cpu_info()->guest_regs )
    {
        pv_domain_lock();               /* the exit drops it */
        do_trap(regs);
        __pv_exit_to_guest(regs, true);
        return;
    }

    __pv_exit_to_guest(regs, exception(regs, vec, cr2));
}
