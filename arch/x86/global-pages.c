/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * global-pages: whether the shim and its guest use CR4.PGE.  With global
 * pages a full TLB flush is two CR4 writes, each a VM exit on AMD SVM (no
 * selective CR4 trapping), so the default is off when virtualized on AMD
 * or Hygon (the Xen patch this project is built around).
 */
#include "arch/x86/cpu.h"
#include "arch/x86/page.h"
#include "shim/console.h"
#include "shim/param.h"

/* global-pages=<boolean>; -1 until decided. */
static int8_t opt_global_pages_param = -1;
boolean_param("global-pages", opt_global_pages_param);

bool __read_mostly opt_global_pages;

/* The pure decision, host-tested; *why gets the reason for the log. */
bool global_pages_decide(int8_t param, enum cpu_vendor vendor,
                         bool hypervisor, const char **why)
{
    if ( param >= 0 )
    {
        *why = "command line";
        return param;
    }
    if ( hypervisor && (vendor == VENDOR_AMD || vendor == VENDOR_HYGON) )
    {
        *why = vendor == VENDOR_AMD ? "AMD, running virtualized"
                                    : "Hygon, running virtualized";
        return false;
    }
    *why = hypervisor ? "not AMD/Hygon" : "not virtualized";
    return true;
}

void global_pages_init(void)
{
    const char *why;

    opt_global_pages =
        global_pages_decide(opt_global_pages_param, boot_cpu.vendor,
                            cpu_has(X86_FEATURE_HYPERVISOR), &why);
    if ( opt_global_pages && !cpu_has(X86_FEATURE_PGE) )
    {
        opt_global_pages = false;
        why = "CPU has no PGE";
    }
    printk("global-pages: %s (%s)\n", opt_global_pages ? "on" : "off", why);
}
