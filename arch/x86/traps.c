/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What happens when the shim itself takes an exception or an interrupt it
 * did not expect: a register dump and a symbolised stack trace in Xen's
 * format, then the VM stops with SHIM_EXIT_FAULT.
 */
#include <xen/errno.h>
#include "arch/x86/apic.h"
#include "arch/x86/cr.h"
#include "arch/x86/debugreg.h"
#include "arch/x86/exception.h"
#include "arch/x86/io.h"
#include "arch/x86/irq.h"
#include "arch/x86/msr.h"
#include "arch/x86/smp.h"
#include "arch/x86/time.h"
#include "arch/x86/traps.h"
#include "arch/x86/uaccess.h"
#include "shim/console.h"
#include "shim/keyhandler.h"
#include "shim/panic.h"
#include "shim/param.h"
#include "shim/perfc.h"
#include "shim/softirq.h"
#include <xen/nmi.h>                /* XEN_NMIREASON_*, after the types */

static const char *const vector_names[32] = {
    "divide error", "debug", "nmi", "breakpoint", "overflow", "bounds",
    "invalid opcode", "device not available", "double fault",
    "coprocessor segment overrun", "invalid TSS", "segment not found",
    "stack error", "general protection fault", "page fault",
    "spurious interrupt bug", "coprocessor error", "alignment check",
    "machine check", "simd error", "virtualisation exception",
    "control-flow protection", NULL, NULL, NULL, NULL, NULL, NULL,
    "hypervisor injection", "vmm communication", "security exception",
    NULL,
};

static void print_symbol(const char *pfx, unsigned long addr)
{
    unsigned long off, size;
    const char *name = symbol_lookup(addr, &off, &size);

    if ( name )
        printk(XENLOG_ERR "%s[<%016lx>] %s+%#lx/%#lx\n", pfx, addr, name,
               off, size);
    else
        printk(XENLOG_ERR "%s[<%016lx>] ???\n", pfx, addr);
}

static bool on_this_stack(unsigned long p, size_t len)
{
    unsigned long base = (unsigned long)this_cpu()->stack;

    return p >= base && p + len <= base + STACK_SIZE && p + len > p;
}

void show_stack_trace(const void *fp)
{
    const unsigned long *frame = fp;
    unsigned int depth = 0;

    /* Each frame: saved %rbp, then the return address. */
    while ( frame && on_this_stack((unsigned long)frame, 16) &&
            depth++ < 32 )
    {
        unsigned long off, size;

        /* Only return addresses into our text: the chain ends there. */
        if ( !symbol_lookup(frame[1], &off, &size) )
            break;
        print_symbol("   ", frame[1]);
        if ( (unsigned long)frame[0] <= (unsigned long)frame )
            break;                      /* stacks grow down: no loops */
        frame = (const unsigned long *)frame[0];
    }
}

void show_gprs(const struct cpu_regs *r)
{
    printk(XENLOG_ERR "rax: %016lx   rbx: %016lx   rcx: %016lx\n",
           r->rax, r->rbx, r->rcx);
    printk(XENLOG_ERR "rdx: %016lx   rsi: %016lx   rdi: %016lx\n",
           r->rdx, r->rsi, r->rdi);
    printk(XENLOG_ERR "rbp: %016lx   rsp: %016lx   r8:  %016lx\n",
           r->rbp, r->rsp, r->r8);
    printk(XENLOG_ERR "r9:  %016lx   r10: %016lx   r11: %016lx\n",
           r->r9, r->r10, r->r11);
    printk(XENLOG_ERR "r12: %016lx   r13: %016lx   r14: %016lx\n",
           r->r12, r->r13, r->r14);
    printk(XENLOG_ERR "r15: %016lx\n", r->r15);
}

void show_registers(const struct cpu_regs *r)
{
    printk(XENLOG_ERR "----[ pvshim x86_64  debug=%c ]----\n",
           IS_ENABLED(CONFIG_DEBUG) ? 'y' : 'n');
    printk(XENLOG_ERR "CPU:    %u\n", smp_processor_id());
    print_symbol("RIP:    ", r->rip);
    printk(XENLOG_ERR "CS:     %04lx  RFLAGS: %016lx   CONTEXT: %s\n",
           r->cs, r->rflags, regs_from_guest(r) ? "guest" : "hypervisor");
    show_gprs(r);
    printk(XENLOG_ERR "cr0: %016lx   cr4: %016lx\n", read_cr0(), read_cr4());
    printk(XENLOG_ERR "cr3: %016lx   cr2: %016lx\n", read_cr3(), read_cr2());
    printk(XENLOG_ERR "fsb: %016lx   gsb: %016lx   gss: %016lx\n",
           rdmsr(MSR_FS_BASE), rdmsr(MSR_GS_BASE),
           rdmsr(MSR_SHADOW_GS_BASE));
    printk(XENLOG_ERR "ss: %04lx   cs: %04lx\n", r->ss, r->cs);
}

void show_execution_state(const struct cpu_regs *regs)
{
    show_registers(regs);
    if ( regs_from_guest(regs) )
        return;
    printk(XENLOG_ERR "Xen call trace:\n");
    print_symbol("   ", regs->rip);
    show_stack_trace((const void *)regs->rbp);
}

/*
 * nmi=<guest|ignore|fatal> (Xen's nmi=, whose dom0 is guest here): what
 * an NMI does.  None is expected (no watchdog, no performance counters):
 * one is the host's (QEMU's nmi monitor command, libvirt's inject-nmi,
 * which reach every CPU) or an error the platform reports so.  guest:
 * said, and handed to the guest's vCPU 0 as Xen's `xl trigger nmi`
 * does (its NMI callback; Linux's dumps its state or panics as told);
 * ignore: said; fatal: a register dump and the VM's end, as a debug Xen.
 */
enum { NMI_GUEST, NMI_IGNORE, NMI_FATAL };
static unsigned int __read_mostly opt_nmi = NMI_GUEST;

static int parse_nmi(const char *s)
{
    if ( !strcmp(s, "guest") || !strcmp(s, "dom0") )
        opt_nmi = NMI_GUEST;
    else if ( !strcmp(s, "ignore") )
        opt_nmi = NMI_IGNORE;
    else if ( !strcmp(s, "fatal") )
        opt_nmi = NMI_FATAL;
    else
        return -XEN_EINVAL;
    return 0;
}
custom_param("nmi", parse_nmi);

/*
 * The NMI status and control port (the PC's system control port B): it
 * reads PCI SERR in bit 7 and IOCHK in bit 6; a write with bit 2 (3)
 * set clears and disables SERR (IOCHK) reports, bits 4-7 are read-only
 * and written as 0.  Only the boot CPU takes the platform's NMIs (its
 * LINT1), as Xen's nmi_cpu: only it reads the port.
 */
#define NMI_REASON_PORT     0x61
#define NMI_REASON_SERR     0x80
#define NMI_REASON_IOCHK    0x40
#define NMI_REASON_CTRL     0x0f        /* the writable bits */
#define NMI_SERR_DISABLE    0x04
#define NMI_IOCHK_DISABLE   0x08

static uint8_t nmi_reason;              /* the port as CPU 0 last read it */
static unsigned int nmi_report;         /* XEN_NMIREASON_*, to say */
static unsigned long nmi_count[NR_CPUS];
static void (*nmi_forward)(unsigned int reasons);
static void (*nmi_stats_guest)(void);

void trap_set_nmi_forward(void (*fn)(unsigned int reasons),
                          void (*stats)(void))
{
    nmi_forward = fn;
    nmi_stats_guest = stats;
}

/* nmi=fatal: Xen's fatal_trap() for an NMI, with what it was. */
static noreturn void nmi_fatal(const struct cpu_regs *regs, const char *what,
                               uint8_t reason)
{
    console_force_unlock();
    printk(XENLOG_ERR "NMI: %s (port 61: %02x) on CPU%u\n", what, reason,
           smp_processor_id());
    show_execution_state(regs);
    panic("NMI (nmi=fatal)");
}

/*
 * The port's error bits, as Xen's pci_serr_error() and io_check_error():
 * SERR is cleared and left disabled until the softirq has said it (a
 * line that stays asserted would otherwise NMI for ever); IOCHK is
 * cleared and enabled again at once.
 */
static unsigned int nmi_platform_reason(const struct cpu_regs *regs,
                                        uint8_t reason)
{
    unsigned int report = 0;

    /* No port there (-machine pit=off): all ones, neither error. */
    if ( reason == 0xff )
        reason = 0;
    if ( reason & NMI_REASON_SERR )
    {
        if ( opt_nmi == NMI_FATAL )
            nmi_fatal(regs, "PCI system error (SERR)", reason);
        outb((inb(NMI_REASON_PORT) & NMI_REASON_CTRL) | NMI_SERR_DISABLE,
             NMI_REASON_PORT);
        report |= XEN_NMIREASON_pci_serr;
    }
    if ( reason & NMI_REASON_IOCHK )
    {
        if ( opt_nmi == NMI_FATAL )
            nmi_fatal(regs, "I/O check error (IOCHK)", reason);
        outb((inb(NMI_REASON_PORT) & NMI_REASON_CTRL) | NMI_IOCHK_DISABLE,
             NMI_REASON_PORT);
        udelay(1000);
        outb(inb(NMI_REASON_PORT) & (NMI_REASON_CTRL & ~NMI_IOCHK_DISABLE),
             NMI_REASON_PORT);
        report |= XEN_NMIREASON_io_error;
    }
    if ( !report )
    {
        if ( opt_nmi == NMI_FATAL )
            nmi_fatal(regs, "unknown reason", reason);
        report = XEN_NMIREASON_unknown;
    }
    return report;
}

/*
 * In the NMI: nothing that may wait or take a lock; the rest later.  The
 * other CPUs' NMIs (a host that sends one to every CPU, as KVM's) are
 * counted only, as Xen's.
 */
static void do_nmi(const struct cpu_regs *regs)
{
    unsigned int cpu = smp_processor_id();

    nmi_count[cpu]++;
    if ( cpu != 0 )
        return;
    nmi_reason = inb(NMI_REASON_PORT);
    __atomic_fetch_or(&nmi_report, nmi_platform_reason(regs, nmi_reason),
                      __ATOMIC_RELAXED);
    cpu_raise_softirq(cpu, NMI_SOFTIRQ);
    /*
     * Raising one's own softirq sends no IPI, and the NMI may have come
     * after this CPU's last look before a halt or the guest's entry:
     * an interrupt makes it look again (Xen's handle_ist_exception).
     */
    apic_self_ipi(EVENT_CHECK_VECTOR);
}

static void nmi_softirq(void)
{
    unsigned int cpu = smp_processor_id();
    unsigned int report = __atomic_exchange_n(&nmi_report, 0,
                                              __ATOMIC_RELAXED);
    bool forward = opt_nmi == NMI_GUEST && nmi_forward;

    if ( !report )
        return;
    printk(XENLOG_INFO "CPU%u: NMI received (reason %02x, %lu so far)%s\n",
           cpu, nmi_reason, nmi_count[cpu],
           forward ? ": to d1v0" : "");
    if ( report & XEN_NMIREASON_pci_serr )
    {
        printk(XENLOG_ERR "NMI - PCI system error (SERR)\n");
        /* Reports on again (Xen's pci_serr_softirq()). */
        outb(inb(NMI_REASON_PORT) & (NMI_REASON_CTRL & ~NMI_SERR_DISABLE),
             NMI_REASON_PORT);
    }
    if ( forward )
        nmi_forward(report);
}

/* 'n', Xen's do_nmi_stats(): each CPU's NMIs, then vCPU 0's state. */
static void nmi_stats(unsigned char key)
{
    unsigned int cpu;

    (void)key;
    printk("CPU\tNMI\n");
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( cpu_online(cpu) )
            printk("%3u\t%3lu\n", cpu, ACCESS_ONCE(nmi_count[cpu]));
    if ( nmi_stats_guest )
        nmi_stats_guest();
}

void traps_init(void)
{
    open_softirq(NMI_SOFTIRQ, nmi_softirq);
    register_keyhandler('n', nmi_stats, "NMI statistics", true);
}

static bool (*pf_fixup)(const struct cpu_regs *regs, unsigned long addr);

void trap_set_pf_fixup(bool (*fn)(const struct cpu_regs *regs,
                                  unsigned long addr))
{
    pf_fixup = fn;
}

void do_trap(struct cpu_regs *regs)
{
    unsigned int vec = regs->entry_vector;
    const char *name = vec < 32 ? vector_names[vec] : NULL;
    unsigned long fixup;

    /*
     * #DB in the shim: the debug registers are the guest's, and one of its
     * watchpoints hit while we touched its memory for it.  Not our fault,
     * so carry on, as Xen's do_debug() does (the guest sees the hit in DR6).
     * BS is a single step of our own: sysenter's entry runs with the
     * guest's TF until its popfq clears it (the last step's frame shows TF
     * clear).  Xen resets DR6 on such a #DB; that BS is not the guest's to
     * see (its own steps' status left DR6 when they were delivered).
     */
    if ( vec == 1 )
    {
        write_dr6(read_dr6() & ~X86_DR6_BS);
        return;
    }

    if ( vec == X86_EXC_NMI )
    {
        do_nmi(regs);
        return;
    }

    /* An interrupt while the shim waited for one (idle, blocked vCPU). */
    if ( vec >= 32 )
    {
        do_IRQ(regs);
        return;
    }

    if ( vec == X86_EXC_PF && pf_fixup && pf_fixup(regs, read_cr2()) )
        return;

    /*
     * A fault the code expected (a guest-memory copy, an iretq to a frame
     * the guest chose: #GP, #NP, #SS, #PF...): resume at its fix-up.  Not
     * for NMI, #DF or #MC, which no instruction "expects".
     */
    if ( vec < 32 && vec != 2 && vec != 8 && vec != 18 &&
         (fixup = search_exception_table(regs->rip)) )
    {
        perfc_incr(copy_user_faults);
        regs->rip = fixup;
        return;
    }

    local_irq_disable();
    show_registers(regs);
    printk(XENLOG_ERR "Xen call trace:\n");
    print_symbol("   ", regs->rip);
    show_stack_trace((const void *)regs->rbp);
    printk(XENLOG_ERR "\n****************************************\n");
    printk(XENLOG_ERR "Panic on CPU %u:\n", smp_processor_id());
    printk(XENLOG_ERR "FATAL TRAP: vector = %u (%s)\n", vec,
           name ? name : "reserved");
    printk(XENLOG_ERR "[error_code=%04x]\n", regs->error_code);
    if ( vec == 14 )
        printk(XENLOG_ERR "Faulting linear address: %016lx\n", read_cr2());
    printk(XENLOG_ERR "****************************************\n");
    machine_halt(SHIM_EXIT_FAULT);
}

/*
 * Recursion whose base case never comes, to overflow into the guard page
 * below the stack: the #PF can't be delivered there, so it becomes a #DF
 * on its IST stack.
 */
static noinline unsigned long overflow_stack(volatile unsigned long n)
{
    volatile char pad[512];

    pad[0] = n;
    if ( n == ~0UL )
        return 0;
    return overflow_stack(n + 1) + pad[0];
}

bool arch_test_fault(const char *kind)
{
    if ( !strcmp(kind, "pf") )
    {
        volatile unsigned long *bad = (void *)0x10;

        asm ( "" : "+r" (bad) );    /* hide the constant from gcc */
        *bad = 0;
    }
    else if ( !strcmp(kind, "gp") )
    {
        volatile unsigned long *bad = (void *)0x8000000000000000UL;

        asm ( "" : "+r" (bad) );    /* non-canonical: #GP, not #PF */
        *bad = 0;
    }
    else if ( !strcmp(kind, "ud") )
        asm volatile ( "ud2" );
    else if ( !strcmp(kind, "de") )
        asm volatile ( "xor %%ecx, %%ecx; div %%ecx" ::: "eax", "ecx", "edx" );
    else if ( !strcmp(kind, "bp") )
        asm volatile ( "int3" );
    else if ( !strcmp(kind, "df") )
        overflow_stack(0);
    else
        return false;
    return true;
}
