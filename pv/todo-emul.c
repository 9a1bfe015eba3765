/* TEMPORARY link stubs: replaced by pv/emul-priv-op.c and pv/cpuid.c. */
#include "shim/lib.h"
#include "pv/traps.h"
bool pv_emulate_privileged_op(struct cpu_regs *regs) { return false; }
bool pv_emulate_forced_cpuid(struct cpu_regs *regs) { return false; }
