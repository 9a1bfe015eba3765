/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The local APIC (SDM vol. 3A, ch. 10): x2APIC through MSRs where the CPU
 * has it, else xAPIC through its MMIO page; the timer in TSC-deadline mode
 * where the CPU has it (10.5.4.1), else one-shot mode on a count
 * calibrated against the TSC.  Interrupt vectors are in apic.h.
 */
#include "arch/x86/apic.h"
#include "arch/x86/cpu.h"
#include "arch/x86/flush.h"
#include "arch/x86/layout.h"
#include "arch/x86/msr.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/time.h"
#include "arch/x86/vector.h"
#include "arch/x86/acpi.h"
#include "shim/console.h"
#include "shim/console-input.h"
#include "shim/frame.h"
#include "shim/panic.h"
#include "shim/softirq.h"
#include "shim/perfc.h"

#define MSR_APIC_BASE       0x1b
#define  APIC_BASE_EXTD     (1UL << 10)     /* x2APIC mode */
#define  APIC_BASE_EN       (1UL << 11)
#define  APIC_BASE_ADDR     0xfffff000UL
#define MSR_TSC_DEADLINE    0x6e0
#define MSR_X2APIC_FIRST    0x800
#define MSR_X2APIC_ICR      0x830
#define MSR_X2APIC_SELF_IPI 0x83f

/* Register offsets (xAPIC MMIO; x2APIC MSR = 0x800 + offset / 16). */
#define APIC_ID             0x020
#define APIC_TPR            0x080
#define APIC_EOI            0x0b0
#define APIC_SVR            0x0f0
#define  APIC_SVR_ENABLE    (1u << 8)
#define APIC_ESR            0x280
#define APIC_ICR            0x300           /* x2APIC: one 64-bit MSR */
#define APIC_ICR2           0x310           /* xAPIC: destination << 24 */
#define APIC_LVTT           0x320
#define  LVTT_ONESHOT       (0u << 17)
#define  LVTT_TSC_DEADLINE  (2u << 17)
#define  LVT_MASKED         (1u << 16)
#define APIC_LVT0           0x350           /* LINT0: the 8259's, unused */
#define APIC_LVT1           0x360           /* LINT1: the platform's NMI */
#define  LVT_DM_NMI         (4u << 8)
#define APIC_TMICT          0x380           /* initial count */
#define APIC_TMCCT          0x390           /* current count */
#define APIC_TDCR           0x3e0
#define  TDCR_DIV_1         0xb

static bool __read_mostly x2apic, tsc_deadline;
static uint64_t xapic_base;                 /* its physical address */
static volatile uint32_t *__read_mostly xapic_mmio;
static uint64_t apic_timer_khz;             /* one-shot count per ms */
static uint64_t __read_mostly apic_ns_mul;  /* count = (ns * mul) >> 32 */

static uint32_t apic_read(unsigned int reg)
{
    if ( x2apic )
        return rdmsr(MSR_X2APIC_FIRST + (reg >> 4));
    return xapic_mmio[reg / 4];
}

static void apic_write(unsigned int reg, uint32_t val)
{
    if ( x2apic )
        wrmsr(MSR_X2APIC_FIRST + (reg >> 4), val);
    else
        xapic_mmio[reg / 4] = val;
}

/*
 * The one-shot timer (divide by 1) counting down from the top, read as
 * counting up: its rate is the bus clock, which nothing else tells us.
 */
static bool apic_timer_start(unsigned long unused)
{
    apic_write(APIC_LVTT, LVT_MASKED | LOCAL_TIMER_VECTOR);
    apic_write(APIC_TDCR, TDCR_DIV_1);
    apic_write(APIC_TMICT, 0xffffffff);
    return true;
}

/* Once it has reached 0 it stays there. */
static bool apic_timer_read(struct counter_stamp *s, unsigned long unused)
{
    uint32_t left;

    s->before = rdtsc();
    left = apic_read(APIC_TMCCT);
    s->after = rdtsc();
    s->count = ~left;
    return left;
}

static uint64_t calibrate_apic_timer(void)
{
    const struct counter timer = {
        .start = apic_timer_start, .read = apic_timer_read,
        .mask = 0xffffffff, .min_ticks = 1,
        .min_tsc = cpu_khz() * CALIBRATE_MS,
    };
    struct counter_span span;
    bool ok = tsc_time_counter(&timer, &span);

    apic_write(APIC_TMICT, 0);
    return ok ? span.ticks * cpu_khz() / span.tsc : 0;
}

/*
 * This CPU's local APIC on, in the mode the boot CPU chose.  The
 * platform's NMI (QEMU's nmi command, a host's inject-nmi) comes in on
 * LINT1: taken on the boot CPU (@bsp) only, as Linux sets it up; the
 * 8259's LINT0 masked (its pins are masked too: the I/O APIC is used).
 */
static void lapic_enable(bool bsp)
{
    uint64_t base = rdmsr(MSR_APIC_BASE);

    /*
     * xAPIC mode (EN) comes before x2APIC (EN | EXTD): disabled straight
     * to x2APIC is an invalid transition, a #GP (SDM 10.12.5), should
     * firmware have left the APIC off.
     */
    if ( x2apic )
    {
        if ( !(base & APIC_BASE_EN) )
            wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN);
        wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
    }
    else
        wrmsr(MSR_APIC_BASE,
              (base & ~APIC_BASE_ADDR) | xapic_base | APIC_BASE_EN);
    apic_write(APIC_TPR, 0);
    apic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_VECTOR);
    apic_write(APIC_LVT0, LVT_MASKED);
    apic_write(APIC_LVT1, (bsp ? 0 : LVT_MASKED) | LVT_DM_NMI);
}

static void lapic_timer_mode(void)
{
    apic_write(APIC_LVTT, LOCAL_TIMER_VECTOR |
               (tsc_deadline ? LVTT_TSC_DEADLINE : LVTT_ONESHOT));
    /*
     * The mode's write (an MMIO store in xAPIC mode) before any write of
     * the deadline MSR, which is not serialising (SDM 10.5.4.1; Linux's
     * lapic_timer_set_oneshot() fences too).
     */
    if ( tsc_deadline )
        asm volatile ( "mfence" ::: "memory" );
}

void lapic_init(void)
{
    if ( !cpu_has(X86_FEATURE_APIC) )
        panic("no local APIC: the shim needs its timer");
    x2apic = cpu_has(X86_FEATURE_X2APIC);
    tsc_deadline = cpu_has(X86_FEATURE_TSC_DEADLINE);
    if ( !x2apic )
    {
        xapic_base = rdmsr(MSR_APIC_BASE) & APIC_BASE_ADDR;
        map_pages((unsigned long)__va(xapic_base), xapic_base, PAGE_SIZE,
                  _PAGE_RW | _PAGE_PCD | _PAGE_PWT);
        xapic_mmio = __va(xapic_base);
    }

    lapic_enable(true);
    if ( !tsc_deadline )
        apic_timer_khz = calibrate_apic_timer();
    if ( !tsc_deadline && !apic_timer_khz )
        panic("local APIC timer does not count");
    apic_ns_mul = (apic_timer_khz << 32) / 1000000;
    lapic_timer_mode();
    printk("APIC: %s, id %u, timer %s", x2apic ? "x2APIC" : "xAPIC",
           lapic_id(),
           tsc_deadline ? "TSC-deadline\n" : "one-shot, ");
    if ( !tsc_deadline )
        printk("%lu.%03lu MHz\n", apic_timer_khz / 1000,
               apic_timer_khz % 1000);
}

/*
 * An AP: every local APIC ticks at the same bus clock (or uses the same
 * TSC), so the boot CPU's calibration holds here too.
 */
void lapic_init_secondary(void)
{
    lapic_enable(false);
    lapic_timer_mode();
}

void __hot_text lapic_timer_set(uint64_t deadline_ns)
{
    uint64_t now, count;

    if ( tsc_deadline )
    {
        /* 0 disarms; a deadline already past fires at once (10.5.4.1). */
        wrmsr(MSR_TSC_DEADLINE, deadline_ns ? ns_to_tsc_abs(deadline_ns)
                                            : 0);
        return;
    }
    if ( !deadline_ns )
    {
        apic_write(APIC_TMICT, 0);
        return;
    }
    now = now_ns();
    count = deadline_ns > now
            ? ((unsigned __int128)(deadline_ns - now) * apic_ns_mul) >> 32
            : 0;
    /* Too far: fire early, and the timer softirq re-arms for the rest. */
    apic_write(APIC_TMICT, MAX(MIN(count, 0xffffffffULL), 1));
}

void lapic_eoi(void)
{
    apic_write(APIC_EOI, 0);
}

uint32_t lapic_id(void)
{
    return x2apic ? apic_read(APIC_ID) : apic_read(APIC_ID) >> 24;
}

bool lapic_x2apic_mode(void)
{
    return x2apic;
}

/* xAPIC: the previous IPI left the ICR (10.6.1); bounded, false if stuck. */
static bool icr_wait_idle(void)
{
    unsigned long spins;

    for ( spins = 0; spins < 10000000; spins++ )
    {
        if ( !(apic_read(APIC_ICR) & APIC_ICR_BUSY) )
            return true;
        cpu_relax();
    }
    return false;
}

bool apic_icr_write(uint32_t icr, uint32_t dest)
{
    unsigned long flags;
    bool ok;

    if ( x2apic )
    {
        /*
         * The ICR MSR write is not serializing: earlier stores must be
         * visible to the target before the IPI is (Linux's
         * weak_wrmsr_fence()).
         */
        asm volatile ( "mfence; lfence" ::: "memory" );
        wrmsr(MSR_X2APIC_ICR, ((uint64_t)dest << 32) | icr);
        return true;
    }
    if ( dest > 0xff && !(icr & APIC_DEST_SHORTHAND_MASK) )
        return false;                   /* only x2APIC mode reaches it */
    /*
     * ICR2 then ICR with no interrupt between: a handler that sends an
     * IPI of its own (a flush's halt_kick()) would leave its destination
     * in ICR2, and this one go there (Xen's and Linux's the same).
     */
    local_irq_save(flags);
    ok = icr_wait_idle();
    if ( ok )
    {
        apic_write(APIC_ICR2, dest << 24);
        apic_write(APIC_ICR, icr);
        ok = icr_wait_idle();
    }
    local_irq_restore(flags);
    return ok;
}

/*
 * The self shorthand needs no destination: only the ICR's low half is
 * written, so an NMI's self-IPI between another IPI's two writes leaves
 * that one's destination (ICR2) as it was.
 */
void apic_self_ipi(unsigned int vector)
{
    if ( x2apic )
        wrmsr(MSR_X2APIC_SELF_IPI, vector);
    else if ( icr_wait_idle() )
        apic_write(APIC_ICR, APIC_DEST_SELF | APIC_DM_FIXED | vector);
}

uint32_t lapic_error_status(void)
{
    apic_write(APIC_ESR, 0);            /* latch the errors, 10.5.3 */
    return apic_read(APIC_ESR) & 0xef;  /* not bit 4 (reserved) */
}

void __hot_text do_IRQ(struct cpu_regs *regs)
{
    bool was_idle;

    this_cpu()->nr_irqs++;
    perfc_incr(irqs);
    if ( regs->entry_vector == SPURIOUS_VECTOR )
        return;                         /* never acknowledged (10.9) */
    was_idle = flush_idle_irq_enter();
    switch ( regs->entry_vector )
    {
    case LOCAL_TIMER_VECTOR:
        perfc_incr(apic_timer);
        raise_softirq(TIMER_SOFTIRQ);
        break;
    case EVENT_CHECK_VECTOR:
        perfc_incr(ipis);
        break;                          /* the wake-up was the point */
    case CALL_FUNCTION_VECTOR:
        perfc_incr(ipis);
        smp_call_function_interrupt(regs);
        break;
    case INVALIDATE_TLB_VECTOR:
        perfc_incr(ipis);
        invalidate_interrupt();
        break;
    case SERIAL_VECTOR:
        console_input_interrupt(regs);  /* edge: the UART drained first */
        break;
    case ACPI_SCI_VECTOR:
        acpi_sci_interrupt();           /* level: status cleared first */
        break;
    default:
        if ( vector_dispatch(regs->entry_vector) )
            break;                      /* a device's (vector.c) */
        printk(XENLOG_WARNING "APIC: unexpected interrupt vector %#x\n",
               regs->entry_vector);
        break;
    }
    lapic_eoi();
    flush_idle_irq_exit(was_idle);
}
