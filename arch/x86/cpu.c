/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU and hypervisor identification from CPUID (Intel SDM vol. 2A, CPUID;
 * the hypervisor leaves at 0x40000000 as KVM, Xen and Hyper-V define them).
 */
#include "arch/x86/cpu.h"
#include "shim/console.h"

struct cpuinfo boot_cpu;

static const struct {
    const char *id;
    enum cpu_vendor vendor;
} vendors[] = {
    { "GenuineIntel", VENDOR_INTEL },
    { "AuthenticAMD", VENDOR_AMD },
    { "HygonGenuine", VENDOR_HYGON },
};

static const struct {
    const char *sig;
    enum hv_kind kind;
    const char *name;
} hypervisors[] = {
    { "KVMKVMKVM", HV_KVM, "KVM" },
    { "XenVMMXenVMM", HV_XEN, "Xen" },
    { "Microsoft Hv", HV_HYPERV, "Hyper-V" },
    { "TCGTCGTCGTCG", HV_TCG, "QEMU TCG" },
};

const char *cpu_vendor_name(enum cpu_vendor v)
{
    static const char *const names[] = {
        [VENDOR_OTHER] = "other", [VENDOR_INTEL] = "Intel",
        [VENDOR_AMD] = "AMD", [VENDOR_HYGON] = "Hygon",
    };

    return names[v];
}

static void store_regs(char *dst, uint32_t a, uint32_t b, uint32_t c)
{
    memcpy(dst, &a, 4);
    memcpy(dst + 4, &b, 4);
    memcpy(dst + 8, &c, 4);
    dst[12] = '\0';
}

/*
 * The signature leaf is 0x40000000, or 0x40000100 for Xen when it offers
 * Viridian (Hyper-V) at 0x40000000: prefer Xen's, as Xen's guests do.
 */
static void detect_hypervisor(struct cpuinfo *c)
{
    static const uint32_t bases[] = { 0x40000000, 0x40000100 };
    uint32_t a, b, cx, d;
    unsigned int i, j;
    char sig[13];

    c->hv = HV_NONE;
    if ( !(c->features[FEAT_1_ECX] & (1u << 31)) )
        return;

    for ( i = 0; i < ARRAY_SIZE(bases); i++ )
    {
        cpuid_count(bases[i], 0, &a, &b, &cx, &d);
        store_regs(sig, b, cx, d);
        for ( j = 0; j < ARRAY_SIZE(hypervisors); j++ )
            if ( !strcmp(sig, hypervisors[j].sig) &&
                 (c->hv == HV_NONE || hypervisors[j].kind == HV_XEN) )
            {
                c->hv = hypervisors[j].kind;
                c->hv_base = bases[i];
                memcpy(c->hv_signature, sig, sizeof(sig));
            }
    }
    if ( c->hv == HV_NONE )
    {
        /* The bit is set but no signature we know: keep what was there. */
        cpuid_count(bases[0], 0, &a, &b, &cx, &d);
        store_regs(c->hv_signature, b, cx, d);
        c->hv = HV_OTHER;
        c->hv_base = bases[0];
    }
}

void cpu_detect(struct cpuinfo *c)
{
    uint32_t a, b, cx, d, i;

    memset(c, 0, sizeof(*c));
    cpuid_count(0, 0, &c->max_leaf, &b, &cx, &d);
    store_regs(c->vendor_id, b, d, cx);
    for ( i = 0; i < ARRAY_SIZE(vendors); i++ )
        if ( !strcmp(c->vendor_id, vendors[i].id) )
            c->vendor = vendors[i].vendor;

    cpuid_count(1, 0, &a, &b, &c->features[FEAT_1_ECX],
                &c->features[FEAT_1_EDX]);
    c->family = (a >> 8) & 0xf;
    c->model = (a >> 4) & 0xf;
    c->stepping = a & 0xf;
    if ( c->family == 0xf )
        c->family += (a >> 20) & 0xff;
    if ( c->family >= 6 )
        c->model |= ((a >> 16) & 0xf) << 4;

    if ( c->max_leaf >= 7 )
        cpuid_count(7, 0, &a, &c->features[FEAT_7_EBX],
                    &c->features[FEAT_7_ECX], &c->features[FEAT_7_EDX]);

    cpuid_count(0x80000000, 0, &c->max_ext_leaf, &b, &cx, &d);
    if ( c->max_ext_leaf >= 0x80000001 )
        cpuid_count(0x80000001, 0, &a, &b, &c->features[FEAT_E1_ECX],
                    &c->features[FEAT_E1_EDX]);
    if ( c->max_ext_leaf >= 0x80000004 )
    {
        for ( i = 0; i < 3; i++ )
        {
            cpuid_count(0x80000002 + i, 0, &a, &b, &cx, &d);
            memcpy(c->brand + 16 * i, &a, 4);
            memcpy(c->brand + 16 * i + 4, &b, 4);
            memcpy(c->brand + 16 * i + 8, &cx, 4);
            memcpy(c->brand + 16 * i + 12, &d, 4);
        }
        c->brand[48] = '\0';
    }
    c->phys_bits = 36;
    c->virt_bits = 48;
    if ( c->max_ext_leaf >= 0x80000008 )
    {
        cpuid_count(0x80000008, 0, &a, &b, &cx, &d);
        c->phys_bits = a & 0xff;
        c->virt_bits = (a >> 8) & 0xff;
    }

    detect_hypervisor(c);
}

void cpu_print(const struct cpuinfo *c)
{
    const char *brand = c->brand;
    unsigned int i;

    while ( *brand == ' ' )
        brand++;
    printk("CPU: %s (%s) family %#x model %#x stepping %u, \"%s\"\n",
           c->vendor_id, cpu_vendor_name(c->vendor), c->family, c->model,
           c->stepping, brand);
    printk("CPU: %u physical / %u virtual address bits;%s%s%s%s%s%s%s\n",
           c->phys_bits, c->virt_bits,
           cpu_has(X86_FEATURE_NX) ? " nx" : "",
           cpu_has(X86_FEATURE_PGE) ? " pge" : "",
           cpu_has(X86_FEATURE_PAGE1GB) ? " page1gb" : "",
           cpu_has(X86_FEATURE_PCID) ? " pcid" : "",
           cpu_has(X86_FEATURE_SMEP) ? " smep" : "",
           cpu_has(X86_FEATURE_SMAP) ? " smap" : "",
           cpu_has(X86_FEATURE_X2APIC) ? " x2apic" : "");
    if ( c->hv == HV_NONE )
    {
        printk("Hypervisor: none detected (CPUID hypervisor bit clear)\n");
        return;
    }
    for ( i = 0; i < ARRAY_SIZE(hypervisors); i++ )
        if ( c->hv == hypervisors[i].kind )
            break;
    printk("Hypervisor: %s, signature \"%s\" at leaf %#x\n",
           i < ARRAY_SIZE(hypervisors) ? hypervisors[i].name : "unknown",
           c->hv_signature, c->hv_base);
}
