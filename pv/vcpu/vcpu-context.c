/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_initialise (Xen's default_initialise_vcpu() and
 * arch_set_info_guest()): a vCPU's first context read from the guest,
 * checked (vcpu-context-check.c), and applied: its GDT, page tables,
 * callbacks, FPU image, debug registers and the registers it starts
 * from.  Bringing it up is pv/vcpu/vcpu.c's.
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include "arch/x86/cr.h"
#include "arch/x86/desc.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "pv/compat/handle.h"
#include "pv/compat/xlat.h"
#include "pv/descriptor-tables.h"
#include "pv/domain.h"
#include "pv/emul/emul-cr.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "pv/traps.h"
#include "pv/vcpu/vcpu-context.h"
#include "shim/console.h"

#define DESCS_PER_PAGE  (PAGE_SIZE / sizeof(uint64_t))

/*
 * VCPUOP_initialise's copy (4.5 KiB: not on the stack), domain lock
 * held; a 32-bit guest's is read into the second, then translated.
 */
static struct vcpu_guest_context initialise_ctxt;
static uint8_t initialise_compat_ctxt[COMPAT_SIZEOF(vcpu_guest_context)];


/* The context's L4s (ctrlreg[3], and [1] for user mode): cr3 to mfn. */
static unsigned long cr3_mfn(unsigned long cr3)
{
    return xen_cr3_to_pfn(cr3);
}

/*
 * The descriptor that selector @sel names in the GDT @v will start with,
 * as its CPU will hold it: from the guest's frames (checked as
 * pv_load_gdt() installs them), or the shim's reserved entries, which
 * every CPU's GDT has alike; 0 (not present) past them.
 */
static uint64_t start_gdt_desc(const struct vcpu *v, uint16_t sel)
{
    unsigned int idx = sel >> 3;
    unsigned int nr_frames = ROUNDUP(v->gdt_ents, DESCS_PER_PAGE) /
                             DESCS_PER_PAGE;
    uint64_t d;

    if ( idx >= FIRST_RESERVED_GDT_ENTRY )
        return idx < GDT_ENTRIES ? this_cpu()->gdt[idx] : 0;
    if ( idx / DESCS_PER_PAGE >= nr_frames )
        return 0;
    d = ACCESS_ONCE(((uint64_t *)__va(v->gdt_frames[idx / DESCS_PER_PAGE] <<
                                      PAGE_SHIFT))[idx % DESCS_PER_PAGE]);
    return pv_check_descriptor(&d) ? d : 0;
}

/* A code or data descriptor's base (SDM vol. 3A, 3.4.5). */
static unsigned long desc_base(uint64_t d)
{
    return ((d >> 16) & 0xffffff) | ((d >> 32) & 0xff000000);
}

/*
 * A 32-bit vCPU starts with its context's ds, es, fs and gs (@sel)
 * loaded (pv/vcpu/smp.c's load_segments(), as Xen's), from ring 0: each
 * must load without a fault from the GDT it starts with.  Xen would
 * bounce the vCPU to its failsafe callback when it first ran (as
 * load_segments() does here for one gone stale since); the shim refuses
 * the context instead (-EINVAL).  The fs and gs bases are the
 * descriptors', as loading the selectors sets them (load_segments()
 * writes the base MSRs after the selectors).
 */
static long compat_data_selectors(const struct vcpu *v,
                                  const uint16_t sel[4],
                                  unsigned long *fs_base,
                                  unsigned long *gs_base)
{
    uint64_t desc[4];
    unsigned int i;

    for ( i = 0; i < 4; i++ )
    {
        desc[i] = (sel[i] & ~3) ? start_gdt_desc(v, sel[i]) : 0;
        if ( !pv_data_selector_loadable(sel[i], desc[i]) )
        {
            printk(XENLOG_DEBUG "d1v%u: data selector %#x can't be "
                   "loaded\n", v->id, sel[i]);
            return -XEN_EINVAL;
        }
    }
    *fs_base = desc_base(desc[2]);
    *gs_base = desc_base(desc[3]);
    return 0;
}

/*
 * Xen's arch_set_info_guest() for a vCPU not yet initialised, with @c
 * checked by pv_vcpu_context_check() (pv_compat_vcpu_context_check()):
 * the GDT frames through set_gdt's checks, then the kernel L4 (and the
 * user one) each with an L4 type reference as new_guest_cr3() takes it,
 * or a 32-bit vCPU's data selectors and L3, nothing loaded (the vCPU's
 * CPU does that when it starts), then the rest, which can't fail.
 * VGCF_online brings it up at once.  On any failure every reference
 * taken is dropped and @v stays uninitialised.  @cs: a 32-bit vCPU's
 * callback selectors.
 */
static long set_info_guest(struct vcpu *v, struct vcpu_guest_context *c,
                           const struct compat_callback_cs *cs,
                           unsigned int iopl, bool compat)
{
    unsigned long l4 = compat ? pv_cr3_to_pfn(c->ctrlreg[3])
                              : cr3_mfn(c->ctrlreg[3]);
    unsigned long ul4 = 0, fs_base = 0, gs_base = 0;
    uint16_t data_sel[4];
    unsigned int i;
    long rc;

    if ( c->gdt_ents > FIRST_RESERVED_GDT_ENTRY )
        return -XEN_EINVAL;
    if ( (rc = pv_set_gdt(v, c->gdt_frames, c->gdt_ents)) )
        return rc;
    data_sel[0] = c->user_regs.ds;
    data_sel[1] = c->user_regs.es;
    data_sel[2] = c->user_regs.fs;
    data_sel[3] = c->user_regs.gs;
    if ( compat &&
         (rc = compat_data_selectors(v, data_sel, &fs_base, &gs_base)) )
        goto bad_gdt;

    /* A 32-bit guest's root is its L3 (pv_root_type()). */
    if ( (rc = get_page_and_type(l4, pv_root_type())) )
        goto bad_gdt;
    if ( compat )
        pv_compat_set_l3(v, l4);   /* not running: no TLB holds the old */
    else if ( !(dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_fill_ro_mpt(l4);
    /* Ring 1 and 3 share a 32-bit guest's tables: ctrlreg[1] is nothing. */
    if ( !compat && c->ctrlreg[1] )
    {
        ul4 = cr3_mfn(c->ctrlreg[1]);
        if ( (rc = get_page_and_type(ul4, PGT_L4)) )
            goto bad_l4;
        if ( dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict) )
            pv_zap_ro_mpt(ul4);
    }

    v->guest_table = l4;
    v->guest_table_user = ul4;
    /* A 32-bit vCPU's mode is its ring (its selector fixed up already). */
    v->kernel_mode = compat ? pv_compat_kernel_cs(c->user_regs.cs)
                            : !!(c->flags & VGCF_in_kernel);
    v->iopl = iopl;
    memcpy(v->trap_ctxt, c->trap_ctxt, sizeof(v->trap_ctxt));
    v->event_callback_eip = c->event_callback_eip;
    v->failsafe_callback_eip = c->failsafe_callback_eip;
    v->syscall_callback_eip = c->syscall_callback_eip;
    v->failsafe_disables_events = c->flags & VGCF_failsafe_disables_events;
    v->syscall_disables_events = c->flags & VGCF_syscall_disables_events;
    v->kernel_ss = c->kernel_ss;
    v->kernel_sp = c->kernel_sp;
    if ( compat )
    {
        v->event_callback_cs = pv_compat_selector(cs->event);
        v->failsafe_callback_cs = pv_compat_selector(cs->failsafe);
        v->fs_base = fs_base;
        v->gs_base_kernel = v->gs_base_user = gs_base;
    }
    else
    {
        /* A non-null selector kills the base, as Xen. */
        v->fs_base = !(c->user_regs.fs & ~3) ? c->fs_base : 0;
        v->gs_base_kernel = c->gs_base_kernel;
        v->gs_base_user = !(c->user_regs.gs & ~3) ? c->gs_base_user : 0;
    }
    memcpy(v->data_sel, data_sel, sizeof(v->data_sel));
    v->ldt_base = c->ldt_base;
    v->ldt_ents = c->ldt_ents;
    v->ctrlreg0_ts = c->ctrlreg[0] & X86_CR0_TS;
    v->cr4_guest = pv_fixup_guest_cr4(c->ctrlreg[4]);
    memcpy(v->fpu_start, &c->fpu_ctxt, sizeof(v->fpu_start));
    /*
     * Through set_debugreg's rules, its refusals ignored as Xen ignores
     * them here: a value it refuses leaves the register at its default.
     */
    memset(v->debugreg, 0, sizeof(v->debugreg));
    for ( i = 0; i < 4; i++ )
        pv_set_debugreg(v, i, c->debugreg[i]);
    pv_set_debugreg(v, 6, c->debugreg[6]);
    pv_set_debugreg(v, 7, c->debugreg[7]);

    memset(&v->start_regs, 0, sizeof(v->start_regs));
    v->start_regs.r15 = c->user_regs.r15;
    v->start_regs.r14 = c->user_regs.r14;
    v->start_regs.r13 = c->user_regs.r13;
    v->start_regs.r12 = c->user_regs.r12;
    v->start_regs.rbp = c->user_regs.rbp;
    v->start_regs.rbx = c->user_regs.rbx;
    v->start_regs.r11 = c->user_regs.r11;
    v->start_regs.r10 = c->user_regs.r10;
    v->start_regs.r9 = c->user_regs.r9;
    v->start_regs.r8 = c->user_regs.r8;
    v->start_regs.rax = c->user_regs.rax;
    v->start_regs.rcx = c->user_regs.rcx;
    v->start_regs.rdx = c->user_regs.rdx;
    v->start_regs.rsi = c->user_regs.rsi;
    v->start_regs.rdi = c->user_regs.rdi;
    v->start_regs.rip = c->user_regs.rip;
    v->start_regs.cs = c->user_regs.cs;
    v->start_regs.rflags = c->user_regs.rflags;
    v->start_regs.rsp = c->user_regs.rsp;
    v->start_regs.ss = c->user_regs.ss;

    v->is_initialised = true;
    v->down = !(c->flags & VGCF_online);
    return 0;

 bad_l4:
    put_page_and_type(l4);
 bad_gdt:
    pv_destroy_gdt(v);
    return rc;
}

/*
 * VCPUOP_initialise (Xen's default_initialise_vcpu()): the context is
 * read (-EFAULT if it can't be), checked, and applied to a vCPU that has
 * never been initialised (-EEXIST otherwise); a vCPU with no vcpu_info
 * (beyond the legacy 32, before register_vcpu_info) is -EINVAL, as Xen.
 * A 32-bit guest's context is its layout, translated first.
 */
long pv_vcpu_initialise(struct vcpu *v, unsigned long arg, bool compat)
{
    struct vcpu_guest_context *c = &initialise_ctxt;
    struct compat_callback_cs cs = { 0 };
    unsigned int iopl;
    long rc;

    if ( v->vcpu_info == &dummy_vcpu_info )
        return -XEN_EINVAL;
    if ( compat )
    {
        if ( copy_from_guest(initialise_compat_ctxt, arg,
                             sizeof(initialise_compat_ctxt)) )
            return -XEN_EFAULT;
        xlat_vcpu_guest_context_from_compat(c, &cs, initialise_compat_ctxt);
    }
    else if ( copy_from_guest(c, arg, sizeof(*c)) )
        return -XEN_EFAULT;
    if ( v->is_initialised )
        return -XEN_EEXIST;
    rc = compat ? pv_compat_vcpu_context_check(c, &iopl)
                : pv_vcpu_context_check(c, &iopl);
    if ( rc )
        return rc;
    return set_info_guest(v, c, &cs, iopl, compat);
}

