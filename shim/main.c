/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * start_shim(): the whole flow from boot to guest, one named step a line.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/alternative.h"
#include "arch/x86/cpu.h"
#include "arch/x86/ioapic.h"
#include "arch/x86/page.h"
#include "arch/x86/setup.h"
#include "arch/x86/smp.h"
#include "arch/x86/spec-ctrl.h"
#include "arch/x86/time.h"
#include "arch/x86/traps.h"
#include "shim/boot-info.h"
#include "shim/console.h"
#include "shim/console-input.h"
#include "shim/keyhandler.h"
#include "shim/memory.h"
#include "shim/panic.h"
#include "shim/param.h"
#include "shim/perfc.h"
#include "shim/spinlock.h"
#include "shim/timer.h"
#include "shim/version.h"
#include "backends/backends.h"
#include "drivers/drivers.h"
#include "pv/pv.h"

/* test-fault=<pf|gp|ud|de|bp|df>: take that fault once boot is done. */
static char opt_test_fault[8];
string_param("test-fault", opt_test_fault);

static struct memmap memmap;

static void print_boot_info(const struct boot_info *bi)
{
    printk("Booted by %s%s%s%s\n", bi->protocol,
           bi->loader[0] ? " (" : "", bi->loader, bi->loader[0] ? ")" : "");
    if ( bi->image[0] )
        printk("Image: %s\n", bi->image);
    printk("Command line: %s\n", bi->cmdline);
    if ( bi->guest_extra[0] )
        printk("Guest command line extra (after \"--\"): %s\n",
               bi->guest_extra);
    if ( bi->cmdline_truncated )
        printk(XENLOG_WARNING "Command line truncated to %zu bytes\n",
               sizeof(bi->cmdline) - 1);
}

/* The debug keys reach the other CPUs by IPI ('d', 't'). */
static bool key_call(unsigned int cpu, keyhandler_cpu_fn_t *fn, void *data)
{
    return smp_call_function_single(cpu, fn, data);
}

static void print_modules(const struct boot_info *bi)
{
    unsigned int i;

    printk("Modules: %u\n", bi->nr_modules);
    for ( i = 0; i < bi->nr_modules; i++ )
        printk(" module %u: %s%s[%016lx, %016lx) %lu bytes, "
               "command line \"%s\"\n", i, bi->mods[i].name,
               bi->mods[i].name[0] ? " " : "",
               (unsigned long)bi->mods[i].start,
               (unsigned long)(bi->mods[i].start + bi->mods[i].size),
               (unsigned long)bi->mods[i].size, bi->mods[i].cmdline);
    if ( bi->modules_dropped )
        printk(XENLOG_WARNING "%u more module(s) ignored (at most %u)\n",
               bi->modules_dropped, BOOT_MODULES_MAX);
    if ( !bi->nr_modules )
        printk(XENLOG_WARNING "No guest kernel module given\n");
}

static void run_test_fault(void)
{
    if ( !opt_test_fault[0] )
        return;
    printk("test-fault: taking a deliberate \"%s\" fault\n", opt_test_fault);
    if ( !arch_test_fault(opt_test_fault) )
        printk(XENLOG_WARNING "test-fault: unknown fault \"%s\"\n",
               opt_test_fault);
}

noreturn void start_shim(struct boot_info *bi)
{
    cpu_init_boot();
    time_init();
    cmdline_parse(bi->cmdline);
    console_init();
    printk("pvshim %s (%s, %s build) starting\n", PVSHIM_VERSION,
           PVSHIM_COMPILER, IS_ENABLED(CONFIG_DEBUG) ? "debug" : "release");
    print_boot_info(bi);
    lock_profile_init();

    cpu_detect(&boot_cpu);
    cpu_print(&boot_cpu);
    global_pages_init();
    spec_ctrl_init();
    acpi_init(bi->rsdp);
    time_calibrate_late();
    memory_init(bi, &memmap);
    paging_init(&memmap);
    alternatives_init();
    fpu_init();
    timer_init();
    ioapic_init();
    console_input_init();
    keyhandler_init();
    traps_init();
    perfc_init();
    acpi_sci_init();
    smp_boot_cpus(trampoline_page);
    timer_check_cpus();
    keyhandler_set_smp(&(struct keyhandler_smp){
        .nr_cpus = num_online_cpus(), .call = key_call });
    print_modules(bi);
    drivers_init();
    blk_selftest();
    net_selftest();

    run_test_fault();
    pv_m2p_init();
    pv_mm_init(&memmap);
    pv_domain_build(bi);
    backends_init();
    pv_keyhandler_init();
    pv_start_guest();
}
