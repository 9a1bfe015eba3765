/* SPDX-License-Identifier: GPL-2.0-only */
/* The global-pages decision: default by vendor and hypervisor bit, and
 * the command line overriding it both ways. */
#include "unit.h"
#include <stdarg.h>
#include "../../arch/x86/global-pages.c"

struct cpuinfo boot_cpu;
void printk(const char *fmt, ...) { (void)fmt; }

static void check(int8_t param, enum cpu_vendor v, bool hv, bool want,
                  const char *want_why)
{
    const char *why = NULL;

    CHECK_EQ(global_pages_decide(param, v, hv, &why), want);
    CHECK(why && !strcmp(why, want_why));
}

static void amd_virtualized_off(void)
{
    check(-1, VENDOR_AMD, true, false, "AMD, running virtualized");
    check(-1, VENDOR_HYGON, true, false, "Hygon, running virtualized");
}

static void others_on(void)
{
    check(-1, VENDOR_AMD, false, true, "not virtualized");
    check(-1, VENDOR_HYGON, false, true, "not virtualized");
    check(-1, VENDOR_INTEL, true, true, "not AMD/Hygon");
    check(-1, VENDOR_INTEL, false, true, "not virtualized");
    check(-1, VENDOR_OTHER, true, true, "not AMD/Hygon");
}

static void command_line_wins(void)
{
    enum cpu_vendor v;

    for ( v = VENDOR_OTHER; v <= VENDOR_HYGON; v++ )
    {
        check(1, v, true, true, "command line");
        check(0, v, true, false, "command line");
        check(1, v, false, true, "command line");
        check(0, v, false, false, "command line");
    }
}

int main(void)
{
    RUN(amd_virtualized_off);
    RUN(others_on);
    RUN(command_line_wins);
    UNIT_EXIT();
}
