/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The forced-emulation prefix from #UD, as Xen's pv/emul/emul-inv-op.c: a
 * guest's `ud2; .ascii "xen"; cpuid` runs the PV CPUID policy.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "pv/emul/cpuid.h"
#include "arch/x86/segment.h"
#include "pv/emul/emulate.h"
#include "pv/guest-access.h"

/* The public header's XEN_CPUID, as bytes to compare. */
asm ( ".pushsection .rodata\n"
      "forced_cpuid: " XEN_CPUID "\n"
      "forced_cpuid_end:\n"
      ".popsection" );
extern const uint8_t forced_cpuid[], forced_cpuid_end[];

bool pv_emulate_forced_cpuid(struct cpu_regs *regs)
{
    size_t len = forced_cpuid_end - forced_cpuid;
    uint8_t bytes[16];
    uint32_t res[4];

    BUILD_BUG_ON(sizeof(bytes) < 7);
    /*
     * Xen injects #PF when the bytes after a ud2 can't be read; here that
     * is a plain ud2, #UD as on hardware.  The prefix works in both guest
     * modes, as in Xen (which has no CPUID faulting to offer here).
     */
    if ( (!(lar(regs->cs) & _SEGMENT_L) && !pv_code_seg_flat(regs->cs)) ||
         copy_from_guest(bytes, regs->rip, len) ||
         memcmp(bytes, forced_cpuid, len) )
        return false;
    pv_cpuid(regs->rax, regs->rcx, res);
    regs->rax = res[0];
    regs->rbx = res[1];
    regs->rcx = res[2];
    regs->rdx = res[3];
    return pv_emul_instruction_done(regs, len);
}
