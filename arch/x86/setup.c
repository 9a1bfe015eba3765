/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot CPU's per-CPU state: stack block, cpu_info, GDT, TSS, IDT. */
#include "arch/x86/desc.h"
#include "arch/x86/io.h"
#include "arch/x86/percpu.h"
#include "arch/x86/setup.h"

struct percpu *percpu_area[NR_CPUS];
char cpu0_stack[STACK_SIZE] __aligned(STACK_SIZE)
    __section(".bss.page_aligned");

static struct percpu percpu0;
static uint64_t cpu0_gdt[512] __aligned(4096)
    __section(".bss.page_aligned");

/*
 * Mask both 8259 PICs: firmware leaves them on vectors 8-15, where an IRQ
 * would look like an exception.  Interrupts come through the local APIC.
 */
static void i8259_mask_all(void)
{
    outb(0xff, 0x21);
    outb(0xff, 0xa1);
}

void cpu_init_boot(void)
{
    struct cpu_info *ci = (struct cpu_info *)(cpu0_stack + STACK_SIZE) - 1;

    percpu0.cpu_id = 0;
    percpu0.stack = cpu0_stack;
    percpu0.gdt_reserved = cpu0_gdt;
    ci->percpu = &percpu0;
    ci->cpu_id = 0;
    percpu_area[0] = &percpu0;
    desc_init_cpu(&percpu0);
    i8259_mask_all();
}
