/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machine_halt(): end the VM with a status a launcher can read, through
 * QEMU's isa-debug-exit device (port 0xf4), or ACPI S5 where it is absent.
 * machine_reboot(): the same for a guest's reboot, but where no launcher
 * reads the status, restart the machine as Xen's machine_restart() does.
 */
#include <xen/errno.h>
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "arch/x86/irq.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/panic.h"
#include "shim/param.h"

#define DEBUG_EXIT_PORT 0xf4

/*
 * isa-debug-exit makes QEMU exit at once with (value << 1) | 1.  We write
 * status + 1, so every status, poweroff included, has its own exit code
 * (2 * status + 3) apart from both of QEMU's own: 1, QEMU failed, and 0,
 * the VM reset (a triple fault under -no-reboot) or powered off with no
 * status at all.  tools/pvshim-run translates back.
 */
#define DEBUG_EXIT_BIAS 1

/*
 * reboot=<method>[,warm|cold] | no, as Xen's (the first letter of each
 * comma-separated item counts): how the VM restarts when its guest
 * reboots and no launcher took the status.  a[cpi] (default): the
 * FADT's reset register; k[bd]: the keyboard controller's reset line;
 * t[riple]: a triple fault; p[ci]: port 0xcf9's hard reset, P[ower]: its
 * power cycle (w[arm] makes those soft resets).  Each falls back to the
 * next as Xen's do: ACPI, keyboard, ACPI, keyboard, then triple fault
 * and keyboard in turn.  n[o]: power the VM off instead (ACPI S5), as
 * every guest exit did before.  Xen's b[ios], e[fi] and d[mi] have no
 * meaning here and are refused.
 */
static char reboot_type = 'a';
static bool opt_noreboot, reboot_warm;

static int parse_reboot(const char *s)
{
    int rc = 0;

    for ( ;; )
    {
        switch ( *s )
        {
        case 'n':
            opt_noreboot = true;
            break;
        case 'w':
            reboot_warm = true;
            break;
        case 'c':
            reboot_warm = false;
            break;
        case 'a': case 'k': case 't': case 'p': case 'P':
            reboot_type = *s;
            break;
        default:
            rc = -XEN_EINVAL;
            break;
        }
        if ( !(s = strchr(s, ',')) )
            break;
        s++;
    }
    return rc;
}
custom_param("reboot", parse_reboot);

/* Every status leaves through here; returns if there is no such device. */
static void debug_exit(int status)
{
    local_irq_disable();
    printk("Shutting down the VM, exit status %d\n", status);
    outl(status + DEBUG_EXIT_BIAS, DEBUG_EXIT_PORT);
}

static noreturn void power_off(void)
{
    /* No debug-exit device.  S5 loses the status. */
    acpi_poweroff();
    /* The host acts on S5 asynchronously: give it a second. */
    udelay(1000000);
    printk(XENLOG_ERR "Cannot power off: halting this CPU\n");
    for ( ;; )
        asm volatile ( "cli; hlt" );
}

noreturn void machine_halt(int status)
{
    debug_exit(status);
    power_off();
}

/* Xen's kb_wait(): until the 8042's input buffer is empty (bounded). */
static void kbd_wait(void)
{
    unsigned int i;

    for ( i = 0; i < 0x10000; i++ )
        if ( !(inb(0x64) & 0x02) )
            break;
}

static void triple_fault(void)
{
    static const struct { uint16_t limit; uint64_t base; } __packed no_idt;

    asm volatile ( "lidt %0; int3" :: "m" (no_idt) );
}

noreturn void machine_reboot(int status)
{
    unsigned int attempt, i;
    char type = reboot_type;
    uint8_t cf9;

    debug_exit(status);
    /* Still here: nothing reads the status.  Restart, as a machine would. */
    if ( opt_noreboot )
    {
        printk("Not rebooting (reboot=no): powering the VM off\n");
        power_off();
    }
    for ( attempt = 0; ; attempt++ )
    {
        switch ( type )
        {
        case 'a':
            if ( acpi_reset() )
                udelay(50000);
            type = 'k';
            break;
        case 'k':
            printk("Rebooting the VM: keyboard controller\n");
            for ( i = 0; i < 100; i++ )
            {
                kbd_wait();
                udelay(50);
                outb(0xfe, 0x64);       /* pulse the reset line low */
                udelay(50);
            }
            /* Windows' order where ACPI can: ACPI, KBD, ACPI, KBD. */
            type = attempt == 1 && reboot_type == 'a' ? 'a' : 't';
            break;
        case 't':
            printk("Rebooting the VM: triple fault\n");
            triple_fault();
            type = 'k';
            break;
        default:                        /* 'p', 'P' */
            printk("Rebooting the VM: port 0xcf9\n");
            /* SYS_RST (a hard reset), FULL_RST (power cycle), then RST_CPU. */
            cf9 = inb(0xcf9) & ~0x0e;
            if ( type == 'P' )
                cf9 |= 0x0a;
            else if ( !reboot_warm )
                cf9 |= 0x02;
            outb(cf9, 0xcf9);
            udelay(50);
            outb(cf9 | 0x04, 0xcf9);    /* the reset itself */
            udelay(50);
            type = 'a';
            break;
        }
    }
}
