/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Debug keys on the serial console, as Xen's (xen/common/keyhandler.c,
 * the input switch of xen/drivers/char/console.c): CTRL-a three times
 * moves input between the guest and the shim; a key typed to the shim
 * runs its handler from KEYPRESS_SOFTIRQ, never in the interrupt.
 */
#ifndef SHIM_KEYHANDLER_H
#define SHIM_KEYHANDLER_H

#include "shim/lib.h"
#include "arch/x86/regs.h"

typedef void keyhandler_fn_t(unsigned char key);

/* @key (7-bit) runs @fn; @desc is its line in the 'h' list. */
void register_keyhandler(unsigned char key, keyhandler_fn_t *fn,
                         const char *desc, bool diagnostic);

/*
 * Boot, after console_input_init(): the built-in keys, KEYPRESS_SOFTIRQ,
 * and the serial input hook (input starts with the guest, "DOM1").
 */
void keyhandler_init(void);

/* Run @key's handler now (softirq context; the hook defers to it). */
void handle_keypress(unsigned char key);

/*
 * How the keys reach other CPUs ('d', 't').  SMP bring-up sets this:
 * @nr_cpus online, and @call(cpu, fn, data) makes @cpu run fn(regs, data)
 * from an IPI, @regs being where that CPU was interrupted; it returns once
 * @fn has run, false if the CPU did not answer.  Until then each key sees
 * only the CPU it is handled on.
 */
typedef void keyhandler_cpu_fn_t(const struct cpu_regs *regs, void *data);
struct keyhandler_smp {
    unsigned int nr_cpus;
    bool (*call)(unsigned int cpu, keyhandler_cpu_fn_t *fn, void *data);
};
void keyhandler_set_smp(const struct keyhandler_smp *smp);
unsigned int keyhandler_nr_cpus(void);

/*
 * 'd' on one CPU, as Xen's dump_execstate(): the shim's registers if
 * @regs (where the CPU was interrupted) are the shim's, then the
 * registers of the guest vCPU it runs.  For the IPI handler too.
 */
void dump_execstate(const struct cpu_regs *regs, void *unused);

#endif /* SHIM_KEYHANDLER_H */
