/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Entry from and exit to the PV guest: the per-CPU `syscall` entries that
 * carry hypercalls, the continuation of guest exceptions from
 * arch/x86/entry.S, and the one return path every entry ends on.
 *
 * The guest frame is struct cpu_regs at the top of the CPU's stack
 * (struct cpu_info, arch/x86/percpu.h); a syscall entry builds it in the
 * shape the CPU pushes for an exception, so both share one exit:
 *
 *   ss rsp rflags cs rip     CPU (exception) / lstar stub + lstar_common
 *   error_code entry_vector  CPU or `push $0`; ENTRY_SYSCALL marks syscall
 *   rdi ... r15              SAVE_ALL
 */
#include <xen/xen.h>
#include "asm-offsets.h"
#include "arch/x86/asm-macros.h"
#include "arch/x86/desc.h"
#include "arch/x86/eflags.h"
#include "arch/x86/layout.h"
#include "arch/x86/spec-ctrl-asm.h"
#include "pv/entry.h"

        .section .text.entry, "ax", @progbits

/*
 * PERFC_CALL fn: in a build with performance counters, @fn(the guest
 * frame) (shim/perfc.h: the time from an entry from the guest to the
 * exit back), with %rsp = the frame; the other caller-saved registers
 * clobbered, %rdi the frame again after.  In any other build, nothing.
 */
.macro PERFC_CALL fn
#ifdef CONFIG_PERF_COUNTERS
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    \fn
        add     $8, %rsp
        mov     %rsp, %rdi
#endif
.endm

/* The rest of a syscall's frame: rflags, @cs, rip, the mark, the GPRs. */
.macro SYSCALL_FRAME cs
        pushq   %r11                    /* rflags */
        pushq   $\cs
        pushq   %rcx                    /* rip */
        pushq   $0
        movl    $ENTRY_SYSCALL, 4(%rsp)
        SAVE_ALL
.endm

/*
 * To the exit: its copy without speculation controls, or the one with
 * them (SCF_EXIT_ANY), patched at boot; RESTORE_TO_GUEST below.
 */
.macro JMP_RESTORE_TO_GUEST
        ALTERNATIVE "JMP32 pv_restore_to_guest", \
                "JMP32 pv_restore_to_guest_spec", ALT_IF(SCF_EXIT_ANY)
.endm

.macro JMP_RESTORE_COMPAT
        ALTERNATIVE "JMP32 pv_restore_compat", \
                "JMP32 pv_restore_compat_spec", ALT_IF(SCF_EXIT_ANY)
.endm

/*
 * SYSCALL_ENTRY name ss cs handler: NR_CPUS 32-byte stubs at name_stubs,
 * one per CPU (that CPU's MSR points at its own, so the stub finds the
 * CPU's stack with no register and no %gs: the guest owns %gs), and the
 * common part that builds the frame with @ss and @cs and calls @handler.
 *
 * The speculation controls (spec-ctrl-asm.h) are chosen at the stubs:
 * each jumps to one of three ways in, patched at boot (alternative.h),
 * so none of them tests a flag.  name_common overwrites the RSB first
 * (it needs no register: the guest's are all still live, %r11 and %rcx
 * included) and fences; name_common_none (spec-ctrl=no) is the same
 * code after that; name_common_tested builds the frame and runs the
 * tested form (IBPB, MSR_SPEC_CTRL), then joins the others at
 * name_common_frame.  No cld: syscall cleared DF (MSR_SFMASK).
 */
.macro SYSCALL_ENTRY name, ss, cs, handler
        .pushsection .text.entry.syscall_stubs, "ax", @progbits
        .balign 32
        .globl  \name\()_stubs
\name\()_stubs:
        .set    cpu, 0
        .rept   NR_CPUS
        .balign 32
        movq    %rsp, lstar_saved_rsp + cpu * 8(%rip)
        movq    lstar_stack + cpu * 8(%rip), %rsp
        pushq   $\ss
        pushq   lstar_saved_rsp + cpu * 8(%rip)
        ALTERNATIVE_2 "JMP32 \name\()_common", \
                "JMP32 \name\()_common_none", ALT_IFNOT(SCF_ENTRY_LFENCE), \
                "JMP32 \name\()_common_tested", ALT_IF(SCF_ENTRY_TESTED)
        .set    cpu, cpu + 1
        .endr
        .popsection

/* Registers on entry: as the stub's, with ss and rsp already pushed. */
\name\()_common:
        DO_OVERWRITE_RSB
        lfence
\name\()_common_none:
        SYSCALL_FRAME \cs
\name\()_common_frame:
        PERFC_CALL pv_perfc_entry
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    \handler                /* ends in the exit's checks */
        add     $8, %rsp
        JMP_RESTORE_TO_GUEST

        .pushsection .text.entry_tested, "ax", @progbits
\name\()_common_tested:
        SYSCALL_FRAME \cs
        SPEC_CTRL_ENTRY_FROM_PV_TESTED
        JMP32   \name\()_common_frame
        .popsection
.endm

/*
 * lstar_stubs (MSR_LSTAR): syscall from 64-bit code, the hypercall from
 * the guest kernel, the guest's own system call from its user mode.
 * Registers on entry (SDM vol. 2B, SYSCALL):
 *   %rcx  guest %rip after the syscall     %r11  guest %rflags
 *   %rsp  guest stack                      IF, TF, DF, AC clear (SFMASK)
 *   %rax  hypercall number; %rdi %rsi %rdx %r10 %r8 %r9 arguments
 */
        SYSCALL_ENTRY lstar, FLAT_KERNEL_SS, FLAT_KERNEL_CS64, pv_syscall

/*
 * cstar_stubs (MSR_CSTAR): syscall from a 32-bit code segment.  A 64-bit
 * PV guest only ever means its own system call by it, from user or kernel
 * mode (Xen's cstar_enter goes straight to switch_to_kernel): the frame
 * says FLAT_USER_CS32 and FLAT_USER_SS32.  Registers as lstar_stubs'.
 */
        SYSCALL_ENTRY cstar, FLAT_USER_SS32, FLAT_USER_CS32, pv_cstar_syscall

/*
 * sysenter (Intel only in long mode; AMD raises #UD).  Registers on entry
 * (SDM vol. 2B, SYSENTER): %rsp = MSR_SYSENTER_ESP, this CPU's RSP0;
 * IF, VM and RF clear, every other flag the guest's, TF included: then
 * each instruction here single-steps into a #DB, which the shim's handler
 * ignores, until the popfq clears TF (and NT, which would fault our
 * iretq, AC, which would open SMAP, and DF).  The guest's flags are
 * taken first, in the ss slot, and moved into place; the frame is Xen's:
 * RIP 0, CS 3, RSP 0, SS FLAT_USER_SS.
 */
        .globl  sysenter_entry
sysenter_entry:
        pushfq
        pushq   (%rsp)
        andl    $~(X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_NT | \
                   X86_EFLAGS_AC), (%rsp)
        popfq
        pushq   $0                      /* rsp */
        pushq   8(%rsp)                 /* rflags */
        movq    $FLAT_USER_SS, 16(%rsp) /* ss */
        pushq   $3                      /* cs */
        pushq   $0                      /* rip */
        pushq   $0
        movl    $ENTRY_SYSCALL, 4(%rsp)
        SAVE_ALL
        SPEC_CTRL_ENTRY_FROM_PV         /* before any ret: spec-ctrl-asm.h */
        PERFC_CALL pv_perfc_entry
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_sysenter             /* ends in the exit's checks */
        add     $8, %rsp
        JMP_RESTORE_TO_GUEST

/*
 * int $0x82 (IDT gate DPL 1, arch/x86/desc.c): the hypercall of a 32-bit
 * guest's ring-1 kernel.  Registers on entry: the CPU's frame, interrupts
 * off; %eax the number, %ebx %ecx %edx %esi %edi %ebp the arguments
 * (the compat ABI), result in %eax.  Its own entry, so the dispatcher
 * knows at compile time whose ABI it serves (pv/hypercall.c).
 */
        .globl  int82_entry
int82_entry:
        pushq   $0
        movl    $HYPERCALL_VECTOR, 4(%rsp)
        cld
        SAVE_ALL
        SPEC_CTRL_ENTRY_FROM_PV         /* before any ret: spec-ctrl-asm.h */
        PERFC_CALL pv_perfc_entry
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_int82                /* ends in the exit's checks */
        add     $8, %rsp
        JMP_RESTORE_COMPAT

/*
 * From arch/x86/entry.S: an exception taken in the guest.  Registers on
 * entry: %rsp = %rdi = the saved frame (the guest frame in cpu_info,
 * or an IST stack for #DB, NMI, #DF and #MC).  A #DB is the guest's to
 * have, and an NMI the exit's to pass on: the frame moves to cpu_info's
 * guest frame (free while the guest runs), and the rest is as for any
 * exception, on the primary stack, so that an NMI coming once the exit's
 * interrupt windows have unblocked NMIs finds its IST stack free.
 */
        .globl  pv_exception_entry
pv_exception_entry:
        /*
         * The entry from ring 3 left %ss null, which AMD's sysretq would
         * leave the guest (its selector right, its cache unusable in
         * 32-bit code: Linux's X86_BUG_SYSRET_SS_ATTRS): the shim's own,
         * as the syscall entries load it.
         */
        mov     $SHIM_DS, %eax
        mov     %eax, %ss
        PERFC_CALL pv_perfc_entry
        mov     %rsp, %rax
        or      $(STACK_SIZE - 1), %rax
        lea     1 - CPU_INFO_sizeof + CPU_INFO_guest_regs(%rax), %rax
        cmp     %rax, %rsp
        je      1f
        cmpl    $1, REGS_entry_vector(%rsp)
        je      2f
        cmpl    $2, REGS_entry_vector(%rsp)
        jne     1f
2:      mov     %rsp, %rsi
        mov     %rax, %rdi
        mov     $REGS_sizeof / 8, %ecx
        rep movsq
        mov     %rax, %rsp
        mov     %rax, %rdi
1:      sub     $8, %rsp
        call    pv_exception            /* ends in the exit's checks */
        add     $8, %rsp
        JMP_RESTORE_TO_GUEST

/*
 * The way back to the guest for the paths whose C doesn't end in the
 * exit's checks (a refused iretq, the vCPU's start).  Registers on entry:
 * %rsp = the guest frame; the domain lock held or not.
 * pv_exit_to_guest() runs the pending work, sanitises the frame and
 * drops the lock if held.
 */
        .globl  pv_return_to_guest
pv_return_to_guest:
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_exit_to_guest        /* turns interrupts off */
        add     $8, %rsp
        JMP_RESTORE_TO_GUEST

/*
 * RESTORE_TO_GUEST spec: the exit, in two copies: pv_restore_to_guest
 * with no speculation controls, pv_restore_to_guest_spec with the tested
 * ones (spec-ctrl-asm.h); every way to the exit jumps to the one chosen
 * at boot (JMP_RESTORE_TO_GUEST).  The same for pv_restore_compat.
 *
 * Registers on entry: %rsp = the guest frame, pv_exit_to_guest()'s
 * checks done (the syscall and exception handlers end in them),
 * interrupts off.
 *
 * sysretq where Xen's restore_all_guest uses it: a frame ENTRY_SYSCALL
 * marks (a syscall's, a bounce's, an iret with VGCF_in_syscall: %rcx and
 * %r11 are the guest's to lose, pv_sysret_regs()), bound for 64-bit
 * code on the flat selectors sysretq loads (MSR_STAR, pv/domain.c).  It
 * loads %rip from %rcx and %rflags from %r11 (the frame's, as safe as
 * for iretq: IF on, IOPL 0, VM off) and reads neither the stack nor the
 * GDT: a quarter off a hypercall's round trip under TCG, and on hardware
 * several times cheaper than iretq.  Never to a non-canonical %rip
 * (bits 63-47 all equal: its upper half plus 2^15 below 2^16): Intel's
 * sysretq would raise that #GP in ring 0 on the guest's stack (XSA-7);
 * iretq's fault goes to iret_fault and the guest.  %ss is the shim's,
 * never null (pv_exception_entry), which AMD's sysretq would pass on.
 * (The GPRs are popped: loading the
 * thirteen of them with movs, %rcx's and %r11's slots skipped, is two
 * instructions fewer but slower under TCG.)  From the %rsp load on, an
 * NMI, #MC or #DB runs on its IST stack.
 */
.macro RESTORE_TO_GUEST spec
pv_restore_to_guest\spec:
        PERFC_CALL perfc_guest_exit
        .ifnb \spec
        SPEC_CTRL_EXIT_TO_PV            /* no ret from here: spec-ctrl-asm.h */
        .endif
        testb   $(ENTRY_SYSCALL >> 8), REGS_entry_vector + 1(%rsp)
        jz      .Liret\spec
        cmpw    $FLAT_KERNEL_CS64, REGS_cs(%rsp)
        jne     .Liret\spec
        mov     REGS_rip + 4(%rsp), %eax    /* bits 32-63 */
        add     $0x8000, %eax
        cmp     $0xffff, %eax
        ja      .Liret\spec
#ifdef CONFIG_DEBUG
        mov     %ss, %eax               /* pv_exception_entry's load */
        test    %eax, %eax
        jnz     1f
        ud2
1:
#endif
        RESTORE_ALL
        mov     REGS_rip - REGS_error_code(%rsp), %rcx
        mov     REGS_rflags - REGS_error_code(%rsp), %r11
        .ifnb \spec
        SPEC_CTRL_COND_VERW             /* with only the guest's GPRs left */
        .endif
        mov     REGS_rsp - REGS_error_code(%rsp), %rsp
        sysretq

/*
 * A 32-bit guest's hypercall: never sysretq (its frames carry no
 * ENTRY_SYSCALL: int $0x82's never had it, a cstar or sysenter frame
 * loses it as it is bounced, compat_bounce_frame()), so no test for it.
 * As above.
 */
pv_restore_compat\spec:
        PERFC_CALL perfc_guest_exit
        .ifnb \spec
        SPEC_CTRL_EXIT_TO_PV            /* no ret from here: spec-ctrl-asm.h */
        .endif
.Liret\spec:
        RESTORE_ALL
        .ifnb \spec
        SPEC_CTRL_COND_VERW             /* with only the guest's GPRs left */
        .endif
        add     $8, %rsp                /* error_code, entry_vector */
iret_to_guest\spec:
        iretq
        EXTABLE iret_to_guest\spec, iret_fault
.endm

        RESTORE_TO_GUEST
        .pushsection .text.entry_tested, "ax", @progbits
        RESTORE_TO_GUEST _spec
        .popsection

/*
 * iretq refused the frame the guest chose (a non-canonical %rip, an
 * unusable selector, an LDT page to map): as on Xen, the guest takes
 * that fault at the frame's %rip.  The fault's frame was pushed below
 * %rsp = &regs->rip, which is 8 mod 16, so the CPU first aligned down by
 * 8: its error code and vector are at -56, and lie there still
 * (interrupts are off; NMI and #MC have their own stacks).  The
 * GPRs are the guest's again (the fix-up path restored them), so the
 * frame is whole once they are saved.
 */
iret_fault:
        pushq   -56(%rsp)               /* error_code, entry_vector */
        SAVE_ALL
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_iret_fault
        add     $8, %rsp
        jmp     pv_return_to_guest

/* pv_enter_guest(): start the guest from the frame in cpu_info. */
        .globl  pv_enter_guest
pv_enter_guest:
        mov     %rsp, %rax
        or      $(STACK_SIZE - 1), %rax
        lea     1 - CPU_INFO_sizeof + CPU_INFO_guest_regs(%rax), %rsp
        PERFC_CALL pv_perfc_start
        jmp     pv_return_to_guest

        .section .data.hot, "aw", @progbits     /* shim/lib.h */
        .balign 8
        .globl  lstar_stack
lstar_saved_rsp:
        .fill   NR_CPUS, 8, 0
lstar_stack:                            /* each CPU's RSP0 */
        .fill   NR_CPUS, 8, 0
