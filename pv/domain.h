/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one PV domain pvshim runs, and its vCPU: everything the guest has
 * told us (trap table, callbacks, stacks, segment bases) and everything we
 * built for it (memory, page tables, shared_info, console ring).
 */
#ifndef PV_DOMAIN_H
#define PV_DOMAIN_H

#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/callback.h>
#include "arch/x86/regs.h"

struct boot_info;

struct vcpu {
    unsigned int id;
    struct domain *domain;
    vcpu_info_t *vcpu_info;             /* in shared_info */

    bool kernel_mode;                   /* guest kernel, not guest user */
    trap_info_t trap_ctxt[256];         /* set_trap_table(); address 0: none */
    unsigned long event_callback_eip;
    unsigned long failsafe_callback_eip;
    unsigned long syscall_callback_eip;
    unsigned long nmi_callback_eip;
    unsigned long syscall32_callback_eip;   /* 32-bit user mode's */
    unsigned long sysenter_callback_eip;
    bool failsafe_disables_events, syscall_disables_events;
    unsigned long kernel_ss, kernel_sp;  /* stack_switch() */

    unsigned long fs_base, gs_base_kernel, gs_base_user;
    unsigned long guest_table;          /* L4 mfn, kernel mode */
    unsigned long guest_table_user;     /* L4 mfn, user mode (0: none) */
    unsigned long ctrlreg0_ts;          /* fpu_taskswitch: guest's CR0.TS */
    unsigned long cr4_guest;            /* CR4 bits it set: TSD, OSXSAVE */
    unsigned long debugreg[8];          /* set_debugreg(): DR0-3, 6, 7 */
    unsigned int iopl;                  /* vm_assist architectural_iopl */
    bool in_multicall;                  /* no continuations in a batch */
    unsigned long gdt_frames[14];       /* set_gdt(): the guest's frames */
    unsigned int gdt_ents;
    unsigned long ldt_frames[16];       /* MMUEXT_SET_LDT's, typed */
    unsigned long ldt_base;
    unsigned int ldt_ents;

    /* Guest user mode: mode switches, vIOPL, FPU (user-mode work). */
    bool sysenter_disables_events;      /* CALLBACKF_mask_events */
    unsigned long iobmp;                /* PHYSDEVOP_set_iobitmap: guest VA */
    unsigned int iobmp_limit;           /* ... and how many ports it covers */

    /* Event channels, blocking and VCPUOPs (pv/event/, sched.c, vcpu.c). */

    /* Time: vcpu_time_info and the guest's timers (pv/time.c). */
};

struct domain {
    unsigned long nr_pages;             /* guest pseudo-physical pages */
    unsigned long *p2m;                 /* pfn -> mfn (the guest's list) */
    shared_info_t *shared_info;
    unsigned long shared_info_mfn;
    unsigned long vm_assist;            /* VMASST_TYPE_* bits */

    /* The start-of-day layout (guest virtual), for logging and checks. */
    unsigned long v_start, v_end, start_info_va;

    /* The console ring we are the backend of, and the xenstore page. */
    struct xencons_interface *console;
    unsigned long console_mfn, store_mfn;
    unsigned int console_port, store_port;

    char cmdline[MAX_GUEST_CMDLINE];
    bool shutting_down;
    unsigned int shutdown_code;         /* SCHEDOP_shutdown_code, or ~0 */
    unsigned long unknown_hypercalls;   /* counted, reported at exit */

    /* Event channels: ports, ABI (2-level or FIFO) (pv/event/). */

    /* Time: wallclock base (pv/time.c). */

    struct vcpu vcpu[1];
};

extern struct domain dom;

static inline struct vcpu *current_vcpu(void)
{
    return &dom.vcpu[0];
}

/* pv/domain-build.c: build the guest from the boot modules. */
void pv_domain_build(struct boot_info *bi);

/* pv/entry.S: enter the guest with the frame in cpu_info; no return. */
noreturn void pv_enter_guest(void);

/* pv/domain.c */
noreturn void domain_crash(const char *fmt, ...) __printf(1, 2);
noreturn void domain_shutdown(unsigned int reason);
void pv_cpu_init(void);

/* pv/guest-mode.c: this CPU's cstar and sysenter entries; the switch
 * between guest kernel and guest user mode (page tables, %gs bases). */
void pv_user_cpu_init(void);
void pv_toggle_guest_mode(struct vcpu *v);

#endif /* PV_DOMAIN_H */
