/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot CPU's per-CPU state: stack block, cpu_info, GDT, TSS, IDT. */
#include "arch/x86/cpu.h"
#include "arch/x86/cr.h"
#include "arch/x86/desc.h"
#include "arch/x86/fpu.h"
#include "arch/x86/io.h"
#include "arch/x86/percpu.h"
#include "shim/softirq.h"
#include "arch/x86/setup.h"

struct percpu *percpu_area[NR_CPUS];
char cpu0_stack[STACK_SIZE] __aligned(STACK_SIZE)
    __section(".bss.page_aligned");

static struct percpu percpu0 __hot_data;      /* its TSS: every entry */
/* The whole GDT: 14 pages for the guest's entries, then our reserved one. */
static uint64_t cpu0_gdt[GDT_ENTRIES] __aligned(4096)
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
    percpu0.gdt = cpu0_gdt;
    ci->percpu = &percpu0;
    ci->cpu_id = 0;
    percpu_area[0] = &percpu0;
    desc_init_cpu(&percpu0);
    i8259_mask_all();
}

/*
 * The FPU, SSE and AVX state belong to the guest: the shim never touches
 * them (it is built with -mgeneral-regs-only), so they only need turning
 * on (SDM vol. 3A, 13.1: CR0.MP/NE, CR4.OSFXSR/OSXMMEXCPT/OSXSAVE, XCR0).
 */
uint64_t xfeature_mask;
uint32_t mxcsr_mask;

void fpu_init(void)
{
    static uint8_t fx[FXSAVE_SIZE] __aligned(16);
    uint32_t a, b, c, d;

    if ( cpu_has(X86_FEATURE_XSAVE) )
    {
        cpuid_count(0xd, 0, &a, &b, &c, &d);
        /* x87 and SSE, and AVX if the CPU has it. */
        xfeature_mask = X86_XCR0_FP | X86_XCR0_SSE | (a & X86_XCR0_YMM);
    }
    fpu_init_cpu();
    /* SDM vol. 1, 11.6.6: 0 in the image means the default, 0xffbf. */
    memset(fx, 0, sizeof(fx));
    fxsave(fx);
    memcpy(&mxcsr_mask, &fx[FXSAVE_MXCSR_MASK], sizeof(mxcsr_mask));
    if ( !mxcsr_mask )
        mxcsr_mask = 0xffbf;
}

void fpu_init_cpu(void)
{
    write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP |
              X86_CR0_NE);
    write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
    if ( xfeature_mask )
    {
        write_cr4(read_cr4() | X86_CR4_OSXSAVE);
        xsetbv(xfeature_mask);
    }
    fninit();
}
