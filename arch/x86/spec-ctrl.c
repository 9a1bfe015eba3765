/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware half of the speculation controls: read what the CPU offers
 * (CPUID, MSR_ARCH_CAPABILITIES), take the choices spec-ctrl-policy.c
 * makes, log them as Xen does and set the flags the entry assembly reads.
 */
#include <xen/errno.h>
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"
#include "arch/x86/desc.h"
#include "arch/x86/page.h"
#include "arch/x86/spec-ctrl.h"
#include "arch/x86/spec-ctrl-bits.h"
#include "shim/console.h"
#include "shim/param.h"

/* Written here once at boot, read by spec-ctrl-asm.h's macros. */
uint8_t __read_mostly spec_ctrl_flags;
uint32_t spec_ctrl_shim_value;
/*
 * The guest's MSR_SPEC_CTRL: always 0, as the guest can't set it (its
 * CPUID hides IBRS/STIBP/SSBD, pv/emul/cpuid-policy.c).
 */
uint32_t spec_ctrl_guest_value;
/* VERW's operand: any selector does for the flush; Xen uses its DS. */
const uint16_t spec_ctrl_verw_sel = SHIM_DS;

static struct spec_ctrl_opts opts = SPEC_CTRL_OPTS_DEFAULT;
static bool has_spec_ctrl;

/*
 * spec-ctrl=List of [ <bool>, xen=<bool>, pv=<bool>,
 *                     {msr-sc,rsb,verw,md-clear,ibpb-entry}=<bool>|pv=<bool>,
 *                     {ibrs,stibp,ssbd,psfd,bhi-dis-s,div-scrub}=<bool> ]
 */
static int parse_spec_ctrl(const char *s)
{
    return spec_ctrl_parse(&opts, s);
}
custom_param("spec-ctrl", parse_spec_ctrl);

/* Intel's microcode revision: write 0, CPUID, read (SDM vol. 3A, 10.11.7). */
static uint32_t intel_ucode_rev(void)
{
    uint32_t a, b, c, d;
    uint64_t rev;

    if ( !wrmsr_safe(MSR_IA32_UCODE_REV, 0) )
        return 0;
    cpuid_count(1, 0, &a, &b, &c, &d);
    return rdmsr_safe(MSR_IA32_UCODE_REV, &rev) ? rev >> 32 : 0;
}

static void detect(struct spec_ctrl_cpu *c)
{
    uint32_t max7 = 0, tmp;
    uint64_t caps;

    memset(c, 0, sizeof(*c));
    c->vendor = boot_cpu.vendor;
    c->family = boot_cpu.family;
    c->model = boot_cpu.model;
    c->stepping = boot_cpu.stepping;
    c->hypervisor = cpu_has(X86_FEATURE_HYPERVISOR);
    c->smep = paging_use_smep();                /* as paging_init() will */

    if ( boot_cpu.max_leaf >= 7 )
        cpuid_count(7, 0, &max7, &tmp, &tmp, &c->cpuid_7d0);
    if ( boot_cpu.max_leaf >= 7 && max7 >= 2 )
        cpuid_count(7, 2, &tmp, &tmp, &tmp, &c->cpuid_7d2);
    if ( boot_cpu.max_ext_leaf >= 0x80000008 )
        cpuid_count(0x80000008, 0, &tmp, &c->cpuid_e8b, &tmp, &tmp);
    if ( boot_cpu.max_ext_leaf >= 0x80000021 )
        cpuid_count(0x80000021, 0, &c->cpuid_e21a, &tmp, &tmp, &tmp);
    /* CPUID.7.0:EDX[29] enumerates the MSR; a hypervisor may still fault. */
    if ( (c->cpuid_7d0 & SC_BIT(7d0, ARCH_CAPS)) &&
         rdmsr_safe(MSR_ARCH_CAPABILITIES, &caps) )
        c->arch_caps = caps;
    if ( c->vendor == VENDOR_INTEL && c->family == 6 )
        c->ucode_rev = intel_ucode_rev();

    /*
     * Xen's srso_calculations(): natively on Zen3/4, microcode that makes
     * IBPB flush branch types also accepts PRED_CMD.SBPB; try it.
     */
    if ( (c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON) &&
         c->family == 0x19 && !c->hypervisor &&
         wrmsr_safe(MSR_PRED_CMD, PRED_CMD_SBPB) )
        c->cpuid_e21a |= SC_BIT(e21a, IBPB_BRTYPE) |
                         SC_BIT(e21a, SBPB);
}

void spec_ctrl_init_cpu(void)
{
    if ( has_spec_ctrl )
        wrmsr(MSR_SPEC_CTRL, spec_ctrl_shim_value);
}

void spec_ctrl_init(void)
{
    static char log[1024];
    struct spec_ctrl_cpu c;
    struct spec_ctrl_choice ch;
    const bool thunk = IS_ENABLED(CONFIG_INDIRECT_THUNK);
    char *line, *nl;

    detect(&c);
    /*
     * pv32: Xen's default (the reference build has PV32 on), and compat
     * guests are coming: with them SMEP no longer shields the RSB.
     */
    spec_ctrl_decide(&c, &opts, true, thunk, &ch);
    spec_ctrl_format(&c, &ch, thunk, log, sizeof(log));
    for ( line = log; *line; line = nl + 1 )
    {
        nl = strchr(line, '\n');
        if ( !nl )
            break;              /* cut short: the buffer is sized for it */
        *nl = '\0';
        printk("%s\n", line);
    }

    has_spec_ctrl = ch.has_spec_ctrl;
    spec_ctrl_shim_value = ch.shim_spec_ctrl;
    spec_ctrl_flags = ch.flags;
    spec_ctrl_init_cpu();
}
