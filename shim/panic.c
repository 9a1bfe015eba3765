/* SPDX-License-Identifier: GPL-2.0-only */
/* panic(): the one way the shim gives up, printed as Xen prints it. */
#include "arch/x86/irq.h"
#include "arch/x86/traps.h"
#include "shim/console.h"
#include "shim/panic.h"

noreturn void panic(const char *fmt, ...)
{
    static bool in_panic;
    char msg[512];
    va_list args;

    local_irq_disable();
    if ( in_panic )
        machine_halt(SHIM_EXIT_PANIC);
    in_panic = true;
    console_force_unlock();

    printk(XENLOG_ERR "\n****************************************\n");
    printk(XENLOG_ERR "Panic on CPU %u:\n", smp_processor_id());
    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);
    printk(XENLOG_ERR "%s\n", msg);
    printk(XENLOG_ERR "****************************************\n");
    printk(XENLOG_ERR "Xen call trace:\n");
    show_stack_trace(__builtin_frame_address(0));
    machine_halt(SHIM_EXIT_PANIC);
}

noreturn void assert_failed(const char *pred, const char *file,
                            unsigned int line)
{
    panic("Assertion '%s' failed at %s:%u", pred, file, line);
}
