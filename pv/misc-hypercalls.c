/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small per-vCPU hypercalls, as Xen's xen/arch/x86/pv/misc-hypercalls.c:
 * kernel stack, lazy FPU switch, debug registers, segment bases, VM assists.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "arch/x86/cpu.h"
#include "arch/x86/cr.h"
#include "arch/x86/debugreg.h"
#include "arch/x86/fpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/segment.h"
#include "pv/domain.h"
#include "pv/guest-addr.h"
#include "pv/hypercall.h"

/*
 * The kernel stack a switch from guest user mode lands on.  Xen checks
 * nothing, and forces the selector's RPL up to the guest kernel's (3).
 */
long __hot_text do_stack_switch(unsigned long ss, unsigned long esp)
{
    struct vcpu *v = current_vcpu();

    /* Xen's fixup_guest_stack_selector(): at least the kernel's ring. */
    if ( dom.compat )
        v->kernel_ss = (ss & 3) ? (uint16_t)ss : (uint16_t)ss | 1;
    else
        v->kernel_ss = ss | 3;
    v->kernel_sp = dom.compat ? (uint32_t)esp : esp;
    return 0;
}

/*
 * The guest's CR0.TS, for its lazy FPU switching: while set, its next FPU
 * instruction raises #NM, which pv/traps.c delivers after clearing TS.
 * Xen's argument is an int, so only the low 32 bits count.
 */
long do_fpu_taskswitch(unsigned long set)
{
    struct vcpu *v = current_vcpu();

    if ( (int)set )
    {
        v->ctrlreg0_ts = X86_CR0_TS;
        stts();
    }
    else
    {
        v->ctrlreg0_ts = 0;
        clts();
    }
    return 0;
}

/*
 * The guest's CR4.DE.  Xen lets a PV kernel set it with an emulated CR4
 * write, which we don't emulate yet: it stays clear, so DR4/DR5 alias
 * DR6/DR7 and I/O breakpoints are refused (Xen emulates them with DE set).
 */
static bool guest_cr4_de(void)
{
    return false;
}

/* Xen's PV policy offers RTM where the CPU has it, and never bus-lock #DB. */
static unsigned long adj_dr6_rsvd(unsigned long dr6)
{
    unsigned long ones = X86_DR6_DEFAULT;

    if ( cpu_has(X86_FEATURE_RTM) )
        ones &= ~X86_DR6_RTM;
    return (dr6 | ones) & ~X86_DR6_ZEROS;
}

static unsigned long adj_dr7_rsvd(unsigned long dr7)
{
    unsigned long zeros = X86_DR7_ZEROS;

    if ( !cpu_has(X86_FEATURE_RTM) )
        zeros |= X86_DR7_RTM;
    return (dr7 & ~zeros) | X86_DR7_DEFAULT;
}

/*
 * The guest's DR6.  A stored 0 means never set (a set DR6 has its ones):
 * Xen starts a vCPU at the default.  Our one vCPU owns the real DR6, and
 * its breakpoints record their status there (pv/traps.c bounces a #DB
 * without reading DR6): merge those bits in, in positive polarity.
 */
static unsigned long guest_dr6(const struct vcpu *v)
{
    unsigned long dr6 = v->debugreg[6] ?: adj_dr6_rsvd(0);
    unsigned long hw = (read_dr6() ^ X86_DR6_DEFAULT) & X86_DR6_KNOWN_MASK;

    return adj_dr6_rsvd(((dr6 ^ X86_DR6_DEFAULT) | hw) ^ X86_DR6_DEFAULT);
}

/*
 * A #DB the guest takes (pv/traps.c): its status moves from the real DR6
 * into the guest's, as Xen's do_debug() does, leaving the real one at its
 * default; so a later #DB in the shim's own context (sysenter's single
 * steps) can clear what it set without touching the guest's status.
 */
void pv_debug_trap_dr6(struct vcpu *v)
{
    v->debugreg[6] = guest_dr6(v);
    write_dr(6, X86_DR6_DEFAULT);
}

/* DR7, as Xen's set_debugreg() checks it; see do_set_debugreg(). */
static long set_dr7(struct vcpu *v, unsigned long value)
{
    unsigned int i;

    /* The upper 32 bits are strictly reserved. */
    if ( value != (uint32_t)value )
        return -XEN_EINVAL;
    value = adj_dr7_rsvd(value);

    /* General Detect would trap the guest kernel's own DR accesses. */
    if ( value & X86_DR7_GD )
        return -XEN_EPERM;

    /* With any breakpoint enabled, an I/O one anywhere needs CR4.DE. */
    if ( value & X86_DR7_ACTIVE_MASK )
        for ( i = DR_CONTROL_SHIFT; i < 32; i += DR_CONTROL_SIZE )
            if ( ((value >> i) & 3) == DR_RW_IO && !guest_cr4_de() )
                return -XEN_EPERM;

    v->debugreg[7] = value;
    if ( v == current_vcpu() )
        write_dr(7, value);
    return 0;
}

/*
 * Xen's set_debugreg(), whose errors its emulator turns into faults:
 *  -ENODEV  #UD (no such register)
 *  -EINVAL  #GP (a reserved bit set)
 *  -EPERM   #GP (a valid setting the guest may not have)
 * DR0-3 must be guest addresses, so no breakpoint matches the shim's own
 * code or data; one can match the shim's copies to and from guest memory,
 * a #DB in shim context to survive as Xen's do_debug() does.  DR0-3 and
 * DR7 are loaded at once if @v runs here, so breakpoints fire in the
 * guest; else when its CPU starts it.  Xen's reg is an int.
 */
long pv_set_debugreg(struct vcpu *v, unsigned int reg, unsigned long value)
{
    bool here = v == current_vcpu();

    switch ( reg )
    {
    case 0 ... 3:
        /* Breakpoints are naturally aligned: the start address decides. */
        if ( !guest_addr_ok(value) )
            return -XEN_EPERM;
        v->debugreg[reg & 3] = value;
        if ( here )
            write_dr(reg & 3, value);
        return 0;

    case 4:                             /* DR6, while CR4.DE is clear */
        if ( guest_cr4_de() )
            return -XEN_ENODEV;
        /* fall through */
    case 6:
        /* The upper 32 bits are strictly reserved. */
        if ( value != (uint32_t)value )
            return -XEN_EINVAL;
        value = adj_dr6_rsvd(value);
        v->debugreg[6] = value;
        if ( here )
            write_dr(6, X86_DR6_DEFAULT);   /* guest_dr6() adds what hits */
        return 0;

    case 5:                             /* DR7, while CR4.DE is clear */
        if ( guest_cr4_de() )
            return -XEN_ENODEV;
        /* fall through */
    case 7:
        return set_dr7(v, value);

    default:
        return -XEN_ENODEV;
    }
}

long do_set_debugreg(unsigned long reg, unsigned long value)
{
    return pv_set_debugreg(current_vcpu(), reg, value);
}

/* @v starts running on this CPU: its breakpoints, its DR6 at default. */
void pv_load_debugregs(const struct vcpu *v)
{
    unsigned int i;

    for ( i = 0; i < 4; i++ )
        write_dr(i, v->debugreg[i]);
    write_dr(6, X86_DR6_DEFAULT);
    write_dr(7, v->debugreg[7] ?: X86_DR7_DEFAULT);
}

/* The value, or -ENODEV for no such register, as Xen's x86emul_read_dr(). */
unsigned long do_get_debugreg(unsigned long reg)
{
    const struct vcpu *v = current_vcpu();

    switch ( (unsigned int)reg )
    {
    case 0 ... 3:
        return v->debugreg[reg & 3];

    case 4:
        if ( guest_cr4_de() )
            return -XEN_ENODEV;
        /* fall through */
    case 6:
        return guest_dr6(v);

    case 5:
        if ( guest_cr4_de() )
            return -XEN_ENODEV;
        /* fall through */
    case 7:
        return v->debugreg[7] ?: X86_DR7_DEFAULT;

    default:
        return -XEN_ENODEV;
    }
}

/*
 * SEGBASE_GS_USER_SEL: load the guest user's %gs selector (and so its
 * base) from the GDT/LDT, as Xen does.  While the guest kernel runs its
 * base is the active GS_BASE and the user's is in SHADOW_GS_BASE, so
 * swapgs around the load.  A selector that faults (#GP, #NP; an LDT with
 * nothing to map) loads NUL instead: Xen never reported the error (Linux
 * BUG()s on one).  An LDT page not yet mapped is mapped on the way, as
 * the guest's own loads map it (ldt_fault_shim(), descriptor-tables.c).
 */
static void load_user_gs_sel(struct vcpu *v, unsigned int sel)
{
    swapgs();

    if ( sel > 3 )
        sel |= 3;
    /* On AMD a NUL load keeps the old base: load a flat one first. */
    else if ( boot_cpu.vendor == VENDOR_AMD ||
              boot_cpu.vendor == VENDOR_HYGON )
        write_sreg(gs, FLAT_USER_DS32);
    /* Interrupts on, as Xen's hypercalls run: an LDT page maps only so. */
    local_irq_enable();
    load_gs_or_nul(sel, FLAT_USER_DS32);
    local_irq_disable();

    v->gs_base_user = rdmsr(MSR_GS_BASE);
    swapgs();
}

/*
 * The guest's segment bases live in the real MSRs (the shim itself never
 * uses %fs or %gs); the vCPU's fields mirror them.  Xen's which is an
 * unsigned int; a non-canonical base is refused before wrmsr can #GP.
 */
long __hot_text do_set_segment_base(unsigned long which, unsigned long base)
{
    struct vcpu *v = current_vcpu();

    switch ( (unsigned int)which )
    {
    case SEGBASE_FS:
        if ( !is_canonical(base) )
            return -XEN_EINVAL;
        wrmsr(MSR_FS_BASE, base);
        v->fs_base = base;
        return 0;

    case SEGBASE_GS_USER:
        if ( !is_canonical(base) )
            return -XEN_EINVAL;
        wrmsr(MSR_SHADOW_GS_BASE, base);
        v->gs_base_user = base;
        return 0;

    case SEGBASE_GS_KERNEL:
        if ( !is_canonical(base) )
            return -XEN_EINVAL;
        wrmsr(MSR_GS_BASE, base);
        v->gs_base_kernel = base;
        return 0;

    case SEGBASE_GS_USER_SEL:
        load_user_gs_sel(v, (uint16_t)base);
        return 0;

    default:
        return -XEN_EINVAL;
    }
}

/*
 * The VM assists Xen 4.17 accepts from a 64-bit PV guest (its
 * PV64_VM_ASSIST_MASK; several mean nothing in 64-bit mode, but refusing
 * them would break guests).  Writable page tables are recorded now and
 * emulated with the PV MMU.
 */
#define PV64_VM_ASSIST_MASK ((1UL << VMASST_TYPE_4gb_segments)         | \
                             (1UL << VMASST_TYPE_4gb_segments_notify)  | \
                             (1UL << VMASST_TYPE_writable_pagetables)  | \
                             (1UL << VMASST_TYPE_pae_extended_cr3)     | \
                             (1UL << VMASST_TYPE_architectural_iopl)   | \
                             (1UL << VMASST_TYPE_runstate_update_flag) | \
                             (1UL << VMASST_TYPE_m2p_strict))

/* A 32-bit guest's (PV32_VM_ASSIST_MASK): no m2p_strict, which acts on L4s. */
#define PV32_VM_ASSIST_MASK (PV64_VM_ASSIST_MASK & \
                             ~(1UL << VMASST_TYPE_m2p_strict))

/* Xen's do_vm_assist() (common/domain.c); cmd and type are unsigned ints. */
long do_vm_assist(unsigned long cmd, unsigned long type)
{
    unsigned int t = type;

    if ( t >= sizeof(dom.vm_assist) * 8 ||
         !((dom.compat ? PV32_VM_ASSIST_MASK : PV64_VM_ASSIST_MASK) &
           (1UL << t)) )
        return -XEN_EINVAL;

    switch ( (unsigned int)cmd )
    {
    case VMASST_CMD_enable:            /* Xen's set_bit(): no lock */
        __atomic_fetch_or(&dom.vm_assist, 1UL << t, __ATOMIC_SEQ_CST);
        return 0;

    case VMASST_CMD_disable:
        __atomic_fetch_and(&dom.vm_assist, ~(1UL << t), __ATOMIC_SEQ_CST);
        return 0;

    default:
        return -XEN_ENOSYS;
    }
}
