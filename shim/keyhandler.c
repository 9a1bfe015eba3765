/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Debug keys (shim/keyhandler.h): the serial input switch (Xen's
 * serial_rx() and switch_serial_input()), the key table and 'h', and the
 * keys that are the shim's own: 'd' registers, 't' clocks, 'a' timers,
 * 'l'/'L' the lock profile.  pv/ registers 'q', 'e' and 'r'.
 */
#include "shim/keyhandler.h"
#include "arch/x86/percpu.h"
#include "arch/x86/time.h"
#include "arch/x86/traps.h"
#include "shim/console.h"
#include "shim/console-input.h"
#include "shim/param.h"
#include "shim/softirq.h"
#include "shim/spinlock.h"
#include "shim/timer.h"

/*
 * conswitch=<switch char>[x]: CTRL-<char> three times moves serial input
 * between the guest and the shim (default 'a'); a trailing 'x' leaves
 * input with the shim at boot.  A character that is no letter (Xen: '`')
 * switches nothing.
 */
static char opt_conswitch[3] = "a";
string_param("conswitch", opt_conswitch);
#define switch_code                                                         \
    (opt_conswitch[0] >= 'a' && opt_conswitch[0] <= 'z'                     \
     ? opt_conswitch[0] - 'a' + 1 : 0)

static struct keyhandler {
    keyhandler_fn_t *fn;
    const char *desc;           /* for the 'h' list */
    bool diagnostic;
} key_table[128];

static bool input_to_shim;      /* else to the guest (Xen's console_rx) */
static bool switch_msg_pending;

/* Keys typed to the shim, waiting for KEYPRESS_SOFTIRQ (boot CPU only). */
#define KEY_QUEUE   32
static unsigned char key_queue[KEY_QUEUE];
static unsigned int key_prod, key_cons;
static struct cpu_regs key_regs;        /* where the last key interrupted */
static bool key_regs_valid;

static struct keyhandler_smp smp = { .nr_cpus = 1 };

void register_keyhandler(unsigned char key, keyhandler_fn_t *fn,
                         const char *desc, bool diagnostic)
{
    ASSERT(key < ARRAY_SIZE(key_table) && !key_table[key].fn);
    if ( key >= ARRAY_SIZE(key_table) )
        return;
    key_table[key].fn = fn;
    key_table[key].desc = desc;
    key_table[key].diagnostic = diagnostic;
}

void handle_keypress(unsigned char key)
{
    const struct keyhandler *h;

    if ( key >= ARRAY_SIZE(key_table) || !(h = &key_table[key])->fn )
        return;
    console_start_log_everything();
    h->fn(key);
    console_end_log_everything();
}

static void switch_serial_input(void)
{
    input_to_shim = !input_to_shim;
    switch_msg_pending = true;
    raise_softirq(KEYPRESS_SOFTIRQ);
}

static void print_switch_msg(void)
{
    if ( switch_code )
        printk("*** Serial input to %s (type 'CTRL-%c' three times to "
               "switch input)\n", input_to_shim ? "Xen" : "DOM1",
               opt_conswitch[0]);
    else
        printk("*** Serial input to %s\n", input_to_shim ? "Xen" : "DOM1");
}

static void queue_key(char c, const struct cpu_regs *regs)
{
    if ( key_prod - key_cons == KEY_QUEUE )
        return;                         /* typed faster than handled */
    key_queue[key_prod++ % KEY_QUEUE] = c;
    key_regs_valid = regs != NULL;
    if ( regs )
        key_regs = *regs;
    raise_softirq(KEYPRESS_SOFTIRQ);
}

/*
 * The console input hook, in interrupt context: CTRL-<switch> is eaten in
 * threes; one or two of them followed by anything else were meant for
 * whoever has the input, and reach it ahead of that byte.  True keeps @c
 * from the guest.
 */
static bool serial_rx(char c, const struct cpu_regs *regs)
{
    static unsigned int switch_code_count;
    char held[3];
    unsigned int n = switch_code_count;

    if ( switch_code && c == switch_code )
    {
        if ( ++switch_code_count == 3 )
        {
            switch_serial_input();
            switch_code_count = 0;
        }
        return true;
    }
    switch_code_count = 0;
    if ( input_to_shim )
    {
        while ( n-- )
            queue_key(switch_code, regs);
        queue_key(c, regs);
        return true;
    }
    if ( !n )
        return false;
    memset(held, switch_code, n);
    held[n] = c;
    console_input_inject(held, n + 1);
    return true;
}

static void keypress_softirq(void)
{
    unsigned char key;

    if ( switch_msg_pending )
    {
        switch_msg_pending = false;
        print_switch_msg();
    }
    while ( key_cons != key_prod )
    {
        key = key_queue[key_cons++ % KEY_QUEUE];
        handle_keypress(key);
    }
}

void keyhandler_set_smp(const struct keyhandler_smp *s)
{
    smp = *s;
}

unsigned int keyhandler_nr_cpus(void)
{
    return smp.nr_cpus;
}

/* ------------------------------------------------------------- the keys */

static void show_handlers(unsigned char key)
{
    unsigned int i;

    printk("'%c' pressed -> showing installed handlers\n", key);
    for ( i = 0; i < ARRAY_SIZE(key_table); i++ )
        if ( key_table[i].fn )
            printk(" key '%c' (ascii '%02x') => %s\n",
                   i > 32 && i < 127 ? (char)i : ' ', i, key_table[i].desc);
}

void dump_execstate(const struct cpu_regs *regs, void *unused)
{
    struct cpu_info *ci = get_cpu_info();
    unsigned int cpu = smp_processor_id();

    if ( regs && !regs_from_guest(regs) )
    {
        printk("*** Dumping CPU%u host state: ***\n", cpu);
        show_execution_state(regs);
    }
    if ( ci->current )
    {
        /* Guest vCPU n runs pinned on CPU n. */
        printk("*** Dumping CPU%u guest state (d1v%u): ***\n", cpu, cpu);
        show_execution_state(&ci->guest_regs);
        printk("\n");
    }
}

static void dump_registers(unsigned char key)
{
    unsigned int cpu, self = smp_processor_id();

    printk("'%c' pressed -> dumping registers\n\n", key);
    dump_execstate(key_regs_valid ? &key_regs : NULL, NULL);
    for ( cpu = 0; cpu < smp.nr_cpus; cpu++ )
        if ( cpu != self && smp.call && !smp.call(cpu, dump_execstate, NULL) )
            printk("*** CPU%u did not answer ***\n", cpu);
}

struct clock_sample {
    int64_t stime;              /* NOW(), less this CPU's NOW() meanwhile */
    int64_t cycles;             /* the same for the TSC */
};

static void read_clocks_cpu(const struct cpu_regs *regs, void *data)
{
    struct clock_sample *s = data;

    s->stime = NOW();
    s->cycles = rdtsc();
}

/*
 * 't', as Xen's read_clocks(): how far apart the CPUs' system time and
 * TSC are.  Each other CPU reads its clocks from an IPI; its skew is
 * taken against the midpoint of this CPU's readings around the call.
 */
static void read_clocks(unsigned char key)
{
    static uint64_t sumdif_stime, maxdif_stime, sumdif_cycles, maxdif_cycles;
    static uint32_t count;
    static DEFINE_SPINLOCK(read_clocks_lock, LOCK_RANK_READ_CLOCKS);
    int64_t min_s = 0, max_s = 0, min_c = 0, max_c = 0, t0, c0;
    struct clock_sample s;
    unsigned int cpu;
    uint64_t dif_stime, dif_cycles;

    spin_lock(&read_clocks_lock);
    for ( cpu = 0; cpu < smp.nr_cpus; cpu++ )
    {
        if ( cpu == smp_processor_id() || !smp.call )
            continue;
        t0 = NOW();
        c0 = rdtsc();
        if ( !smp.call(cpu, read_clocks_cpu, &s) )
            continue;
        s.stime -= t0 + (NOW() - t0) / 2;
        s.cycles -= c0 + ((int64_t)rdtsc() - c0) / 2;
        min_s = MIN(min_s, s.stime);
        max_s = MAX(max_s, s.stime);
        min_c = MIN(min_c, s.cycles);
        max_c = MAX(max_c, s.cycles);
    }
    spin_unlock(&read_clocks_lock);

    dif_stime = max_s - min_s;
    maxdif_stime = MAX(maxdif_stime, dif_stime);
    sumdif_stime += dif_stime;
    dif_cycles = max_c - min_c;
    maxdif_cycles = MAX(maxdif_cycles, dif_cycles);
    sumdif_cycles += dif_cycles;
    count++;
    printk("Synced stime skew: max=%luns avg=%luns samples=%u current=%luns\n",
           maxdif_stime, sumdif_stime / count, count, dif_stime);
    printk("Synced cycles skew: max=%lu avg=%lu samples=%u current=%lu\n",
           maxdif_cycles, sumdif_cycles / count, count, dif_cycles);
    printk("Platform time: NOW=%lu, TSC=%lu at %lu kHz\n",
           (unsigned long)NOW(), (unsigned long)rdtsc(),
           (unsigned long)cpu_khz());
}

/*
 * Handlers in other files are reached through these: the image is -fpie,
 * and the address of an external function would need a GOT entry.
 */
static void key_timerq(unsigned char key)
{
    dump_timerq(key);
}

static void key_lock_profile(unsigned char key)
{
    spinlock_profile_printall(key);
}

static void key_lock_profile_reset(unsigned char key)
{
    spinlock_profile_reset(key);
}

void keyhandler_init(void)
{
    open_softirq(KEYPRESS_SOFTIRQ, keypress_softirq);
    register_keyhandler('a', key_timerq, "dump timer queues", true);
    register_keyhandler('d', dump_registers, "dump registers", true);
    register_keyhandler('h', show_handlers, "show this message", false);
    register_keyhandler('t', read_clocks, "display multi-cpu clock info",
                        true);
    if ( opt_lock_profile )
    {
        register_keyhandler('l', key_lock_profile,
                            "print lock profile info", true);
        register_keyhandler('L', key_lock_profile_reset,
                            "reset lock profile info", false);
    }
    console_input_set_hook(serial_rx);

    /* Input goes to the guest unless conswitch= ends in 'x' (Xen's). */
    input_to_shim = opt_conswitch[1] == 'x';
    print_switch_msg();
}
