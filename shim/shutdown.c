/* SPDX-License-Identifier: GPL-2.0-only */
/* Hooks run once before the VM ends (shim/shutdown.h). */
#include "shim/shutdown.h"
#include "shim/console.h"

static void (*hooks[4])(void);
static unsigned int nr_hooks;

void shutdown_hook_register(void (*fn)(void))
{
    if ( nr_hooks == ARRAY_SIZE(hooks) )
    {
        printk(XENLOG_ERR "shutdown: too many hooks, one dropped\n");
        return;
    }
    hooks[nr_hooks++] = fn;
}

void shutdown_hooks_run(void)
{
    static bool ran;
    unsigned int i;

    /* A hook that ends in a crash must not run the hooks again. */
    if ( ran )
        return;
    ran = true;
    for ( i = 0; i < nr_hooks; i++ )
        hooks[i]();
}
