/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bringing up the APs (SDM vol. 3A, 8.4.4 and 10.6.1): each processor the
 * MADT lists gets a per-CPU area like CPU 0's, then INIT and two STARTUP
 * IPIs that run trampoline.S into start_secondary() on its own stack.
 * One AP at a time, as Xen's do_boot_cpu(): the boot CPU waits for each
 * to come online before it starts the next, so they share one trampoline
 * and one boot-stack slot.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/flush.h"
#include "arch/x86/irq.h"
#include "arch/x86/cr.h"
#include "arch/x86/desc.h"
#include "arch/x86/msr.h"
#include "arch/x86/mtrr.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "arch/x86/setup.h"
#include "arch/x86/smp.h"
#include "arch/x86/spec-ctrl.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/idle.h"
#include "shim/param.h"
#include "shim/timer.h"

/* maxcpus=<integer>: bring up at most this many CPUs, CPU 0 included. */
static unsigned int opt_max_cpus = NR_CPUS;
integer_param("maxcpus", opt_max_cpus);

/* nosmp: the boot CPU only (as maxcpus=1). */
static bool opt_nosmp;
boolean_param("nosmp", opt_nosmp);

#define CALLIN_TIMEOUT_NS   5000000000UL    /* 5 s, as Xen */
#define IPI_TIMEOUT_NS      2000000000UL
#define BOOT_LIMIT_PFN      ((4UL << 30) >> PAGE_SHIFT)
#define PTE_TABLE           (_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | \
                             _PAGE_DIRTY)

extern const char trampoline_start[], trampoline_end[];
extern const char tramp_cr3[], tramp_efer[];

/* The stack ap_start64 takes, zeroing it: the next AP's cpu_info. */
unsigned long ap_boot_stack;

/* What every AP must end up with: CPU 0's, as it was when they started. */
static unsigned long boot_cr0, boot_cr4;
static uint64_t boot_efer;

static uint64_t tramp_phys;
/* The trampoline's page tables: the shim's L4 plus the low 2 MiB. */
static uint64_t *tramp_l4, *tramp_l3, *tramp_l2;
/* An AP was given up on: it may still run the trampoline, keep its tables. */
static bool tramp_keep;

static uint32_t *tramp_var(const char *sym)
{
    return __va(tramp_phys + (sym - trampoline_start));
}

static uint64_t *table_alloc(void)
{
    unsigned long pfn = frames_alloc(1, 0, BOOT_LIMIT_PFN);
    uint64_t *t;

    if ( pfn == INVALID_PFN )
        return NULL;
    t = __va(pfn << PAGE_SHIFT);
    clear_page(t);
    return t;
}

/*
 * Cleared first: freed before the guest is built, the frame may become
 * one of its own, which the builder doesn't zero (bootscrub off), and it
 * holds the shim's page-table entries.
 */
static void table_free(uint64_t *t)
{
    if ( !t )
        return;
    clear_page(t);
    frames_free(__pa(t) >> PAGE_SHIFT, 1);
}

static void trampoline_teardown(void)
{
    if ( tramp_keep )
        return;
    table_free(tramp_l4);
    table_free(tramp_l3);
    table_free(tramp_l2);
    tramp_l4 = tramp_l3 = tramp_l2 = NULL;
}

/* Copy the trampoline to @phys; false (nothing kept) if out of memory. */
static bool trampoline_setup(uint64_t phys)
{
    tramp_l4 = table_alloc();
    tramp_l3 = table_alloc();
    tramp_l2 = table_alloc();
    if ( !tramp_l4 || !tramp_l3 || !tramp_l2 )
    {
        trampoline_teardown();
        return false;
    }
    tramp_l2[0] = 0 | PTE_TABLE | _PAGE_PSE;
    tramp_l3[0] = __pa(tramp_l2) | PTE_TABLE;

    tramp_phys = phys;
    memcpy(__va(phys), trampoline_start, trampoline_end - trampoline_start);
    *tramp_var(tramp_cr3) = __pa(tramp_l4);
    *tramp_var(tramp_efer) = rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE);
    return true;
}

/*
 * INIT, then two STARTUPs at the trampoline's page (10.6.1; 8.4.4.1).
 * The SDM's 10 ms after INIT is for CPUs older than any with long mode:
 * Linux waits 0 on these, and 10 us after each STARTUP.  In x2APIC mode
 * there is no INIT de-assert.
 */
static bool wakeup_secondary_cpu(uint32_t apic_id)
{
    unsigned int i;

    lapic_error_status();
    if ( !apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT,
                         apic_id) )
        return false;
    if ( !lapic_x2apic_mode() &&
         !apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apic_id) )
        return false;
    for ( i = 0; i < 2; i++ )
    {
        lapic_error_status();
        if ( !apic_icr_write(APIC_DM_STARTUP | (tramp_phys >> PAGE_SHIFT),
                             apic_id) )
            return false;
        udelay(10);
        if ( lapic_error_status() )
            return false;
    }
    return true;
}

static bool wait_online(unsigned int cpu)
{
    uint64_t end = now_ns() + CALLIN_TIMEOUT_NS;

    while ( !cpu_online(cpu) )
    {
        if ( now_ns() > end )
            return false;
        cpu_relax();
    }
    return true;
}

enum boot_result { BOOT_UP, BOOT_UNUSED, BOOT_LOST };

/* Start @apic_id as CPU @cpu.  BOOT_UNUSED: its area may be reused. */
static enum boot_result do_boot_cpu(unsigned int cpu, uint32_t apic_id)
{
    struct percpu *pc = percpu_alloc(cpu);

    if ( !pc )
    {
        printk(XENLOG_ERR "CPU%u: no memory for its per-CPU area\n", cpu);
        return BOOT_UNUSED;
    }
    x86_cpu_to_apicid[cpu] = apic_id;
    memcpy(tramp_l4, shim_l4(), PAGE_SIZE);
    tramp_l4[0] = __pa(tramp_l3) | PTE_TABLE;
    printk(XENLOG_DEBUG "Booting processor %u/%u eip %lx\n", cpu, apic_id,
           (unsigned long)tramp_phys);
    __atomic_store_n(&ap_boot_stack,
                     (unsigned long)((struct cpu_info *)
                                     ((char *)pc->stack + STACK_SIZE) - 1),
                     __ATOMIC_SEQ_CST);

    if ( wakeup_secondary_cpu(apic_id) && wait_online(cpu) )
        return BOOT_UP;
    tramp_keep = true;
    /* Never took its stack: nothing of it runs, its area can be reused. */
    if ( __atomic_exchange_n(&ap_boot_stack, 0, __ATOMIC_SEQ_CST) )
    {
        printk(XENLOG_ERR "CPU%u (APIC ID %#x) not responding - cannot "
               "use it\n", cpu, apic_id);
        return BOOT_UNUSED;
    }
    if ( wait_online(cpu) )
        return BOOT_UP;
    printk(XENLOG_ERR "CPU%u (APIC ID %#x) stuck while coming up - cannot "
           "use it\n", cpu, apic_id);
    return BOOT_LOST;
}

/*
 * An AP, from ap_start64: on its own stack, interrupts off, the
 * trampoline's page tables and GDT.  Everything CPU 0 has, the same way
 * CPU 0 got it; then online, and idle.
 */
noreturn void start_secondary(void);
noreturn void start_secondary(void)
{
    unsigned int cpu = smp_processor_id();

    desc_init_cpu(this_cpu());
    mtrr_load();
    paging_init_cpu();
    fpu_init_cpu();
    spec_ctrl_init_cpu();
    lapic_init_secondary();
    if ( read_cr0() != boot_cr0 || read_cr4() != boot_cr4 ||
         rdmsr(MSR_EFER) != boot_efer )
        printk(XENLOG_WARNING "CPU%u: CR0 %#lx CR4 %#lx EFER %#lx, not "
               "CPU0's %#lx %#lx %#lx\n", cpu, read_cr0(), read_cr4(),
               (unsigned long)rdmsr(MSR_EFER), boot_cr0, boot_cr4,
               (unsigned long)boot_efer);
    __atomic_or_fetch(&cpu_online_map, 1UL << cpu, __ATOMIC_SEQ_CST);
    idle_loop();
}

/*
 * Every online CPU, this one too, takes an EVENT_CHECK_VECTOR IPI: the
 * IPI path, each CPU's IDT and local APIC, and its idle loop all work.
 */
static unsigned long smp_check_ipis(void)
{
    unsigned long before[NR_CPUS], online = cpu_online_map, seen = 0;
    uint64_t end = now_ns() + IPI_TIMEOUT_NS;
    unsigned int cpu;

    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( cpu_online(cpu) )
            before[cpu] = ACCESS_ONCE(percpu_area[cpu]->nr_irqs);
    send_IPI_allbutself(EVENT_CHECK_VECTOR);
    send_IPI_self(EVENT_CHECK_VECTOR);
    while ( seen != online && now_ns() < end )
    {
        timer_halt();                   /* this CPU's own IPI, or a while */
        for ( cpu = 0; cpu < NR_CPUS; cpu++ )
            if ( cpu_online(cpu) &&
                 ACCESS_ONCE(percpu_area[cpu]->nr_irqs) != before[cpu] )
                seen |= 1UL << cpu;
    }
    timer_halt_end();
    if ( seen == online )
        printk("SMP: an IPI reached each of the %u CPUs\n",
               num_online_cpus());
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( ((online & ~seen) >> cpu) & 1 )
            printk(XENLOG_WARNING "SMP: CPU%u did not answer an IPI\n", cpu);
    return seen;
}

/*
 * Then one cross-CPU flush (flush_area_mask(), under flush_lock) to the
 * CPUs that answered: each flushes, and the caller's wait ends.
 */
static void smp_check_flush(unsigned long cpus)
{
    unsigned long before[NR_CPUS], others = cpus & ~1UL, missed = 0;
    unsigned int cpu, n = 0;

    for ( cpu = 1; cpu < NR_CPUS; cpu++ )
        before[cpu] = flush_ipis_taken(cpu);
    local_irq_enable();
    flush_area_mask(cpus, 0, FLUSH_TLB);
    local_irq_disable();
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
    {
        n += (cpus >> cpu) & 1;
        if ( ((others >> cpu) & 1) && flush_ipis_taken(cpu) == before[cpu] )
            missed |= 1UL << cpu;
    }
    if ( !missed )
        printk("SMP: a TLB flush reached each of the %u CPUs\n", n);
    else
        printk(XENLOG_WARNING "SMP: CPUs %#lx did not flush\n", missed);
}

/* Whether the CPU with @apic_id can be started; says why not. */
static bool cpu_usable(uint32_t apic_id)
{
    if ( apic_id > 0xff && !lapic_x2apic_mode() )
    {
        printk(XENLOG_WARNING "SMP: APIC ID %#x needs x2APIC mode, which "
               "this CPU lacks - cannot use it\n", apic_id);
        return false;
    }
    return true;
}

static unsigned int max_cpus(void)
{
    if ( opt_nosmp )
        return 1;
    return MAX(MIN(opt_max_cpus, NR_CPUS), 1U);
}

void smp_boot_cpus(uint64_t trampoline)
{
    uint32_t self = lapic_id();
    unsigned int i, cpu = 1, left = 0, max = max_cpus();
    bool listed = false;

    x86_cpu_to_apicid[0] = self;
    for ( i = 0; i < acpi_madt.nr_cpus; i++ )
        listed |= acpi_madt.cpu[i].apic_id == self;
    if ( !acpi_madt.nr_cpus )
        printk(XENLOG_WARNING "SMP: the MADT lists no CPUs: the boot CPU "
               "only\n");
    else if ( !listed )
        printk(XENLOG_WARNING "SMP: the boot CPU (APIC ID %#x) is not in "
               "the MADT\n", self);
    if ( acpi_madt.nr_cpus > 1 && max == 1 )
        left = acpi_madt.nr_cpus - listed;
    else if ( acpi_madt.nr_cpus > 1 )
    {
        if ( !trampoline )
            printk(XENLOG_WARNING "SMP: no free page below 1 MiB for the "
                   "APs' trampoline: the boot CPU only\n");
        else if ( !trampoline_setup(trampoline) )
            printk(XENLOG_WARNING "SMP: no memory for the APs' trampoline\n");
        else
            mtrr_save_boot();
    }
    boot_cr0 = read_cr0();
    boot_cr4 = read_cr4();
    boot_efer = rdmsr(MSR_EFER);

    for ( i = 0; tramp_l4 && i < acpi_madt.nr_cpus && cpu < NR_CPUS; i++ )
    {
        uint32_t id = acpi_madt.cpu[i].apic_id;

        if ( id == self )
            continue;
        if ( num_online_cpus() >= max )
        {
            left++;
            continue;
        }
        if ( !cpu_usable(id) )
            continue;
        if ( do_boot_cpu(cpu, id) != BOOT_UNUSED )
            cpu++;
    }
    trampoline_teardown();

    if ( left && opt_nosmp )
        printk("SMP: %u CPU(s) not brought up (nosmp)\n", left);
    else if ( left )
        printk("SMP: %u CPU(s) not brought up (maxcpus=%u)\n", left,
               opt_max_cpus);
    if ( num_online_cpus() > 1 )
        smp_check_flush(smp_check_ipis());
    printk("Brought up %u CPUs\n", num_online_cpus());
}
