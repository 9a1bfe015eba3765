/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/vcpu/vcpu-context-check.c: VCPUOP_initialise's context checks,
 * each rule of Xen's arch_set_info_guest() for a 64-bit PV vCPU broken
 * on its own, and the normalisation of what passes; the 32-bit (compat)
 * rules, and which data selectors a 32-bit vCPU may start with.
 */
#include "tests/unit/unit.h"
#include "pv/vcpu/vcpu-context-check.c"

#define BAD_VA      0x0000800000000000UL    /* first non-canonical */

uint32_t mxcsr_mask = 0xffbf;               /* no DAZ, as older CPUs */
#define SHIM_VA     HYPERVISOR_VIRT_START   /* canonical, the shim's */

static struct vcpu_guest_context good(void)
{
    struct vcpu_guest_context c;
    unsigned int i;

    memset(&c, 0, sizeof(c));
    c.flags = VGCF_in_kernel | VGCF_online;
    c.user_regs.rip = 0xffffffff81000000UL;
    c.user_regs.rsp = 0xffffffff82000000UL;
    c.user_regs.cs = FLAT_KERNEL_CS;
    c.user_regs.ss = FLAT_KERNEL_SS;
    c.user_regs.rflags = 0x2;
    c.kernel_ss = FLAT_KERNEL_SS;
    c.kernel_sp = 0xffffffff82000000UL;
    c.event_callback_eip = 0xffffffff81001000UL;
    c.syscall_callback_eip = 0xffffffff81002000UL;
    c.ctrlreg[3] = 0x1234000;
    for ( i = 0; i < 32; i++ )
    {
        c.trap_ctxt[i].vector = i;
        c.trap_ctxt[i].cs = FLAT_KERNEL_CS;
        c.trap_ctxt[i].address = 0xffffffff81003000UL + i * 16;
    }
    return c;
}

static int check(struct vcpu_guest_context *c)
{
    unsigned int iopl = 0xdead;

    return pv_vcpu_context_check(c, &iopl);
}

static void test_good(void)
{
    struct vcpu_guest_context c = good();
    unsigned int iopl = 0;

    c.user_regs.rflags = 0x3002;            /* IOPL 3, IF clear */
    c.ctrlreg[0] = 0x8005003b;              /* PG WP NE ET TS MP PE */
    c.user_regs.cs = 0xe030;                /* RPL 0: raised */
    c.user_regs.ss = 0xe029;                /* RPL 1: raised */
    c.kernel_ss = 0xe02a;
    c.trap_ctxt[3].cs = 0xe030;
    CHECK_EQ(pv_vcpu_context_check(&c, &iopl), 0);
    CHECK_EQ(iopl, 0x3000);
    CHECK_EQ(c.user_regs.rflags, 0x202);
    CHECK_EQ(c.ctrlreg[0], 0x8);
    CHECK_EQ(c.user_regs.cs, 0xe033);
    CHECK_EQ(c.user_regs.ss, 0xe02b);
    CHECK_EQ(c.kernel_ss, 0xe02b);
    CHECK_EQ(c.trap_ctxt[3].cs, 0xe033);
    CHECK_EQ(c.trap_ctxt[4].cs, FLAT_KERNEL_CS);

    /* The extremes that are still allowed. */
    c = good();
    c.user_regs.rip = 0x00007fffffffffffUL;
    c.user_regs.rsp = 0xffff800000000000UL;
    c.ldt_base = HYPERVISOR_VIRT_END;
    c.ldt_ents = 8192;
    CHECK_EQ(check(&c), 0);
    c = good();
    c.flags = 0;                            /* user mode, with user tables */
    c.ctrlreg[1] = 0x5678000;
    CHECK_EQ(check(&c), 0);
}

/* Every address Xen checks, non-canonical on its own. */
static void test_canonical(void)
{
    struct vcpu_guest_context c;
    unsigned int i, f;

    for ( f = 0; f < 10; f++ )
    {
        for ( i = 0; i < 2; i++ )
        {
            unsigned long bad = i ? BAD_VA : 0xfffe000000000000UL + 0x1000;
            unsigned long *p;

            c = good();
            switch ( f )
            {
            case 0: p = (unsigned long *)&c.user_regs.rip; break;
            case 1: p = (unsigned long *)&c.user_regs.rsp; break;
            case 2: p = &c.kernel_sp; break;
            case 3: p = &c.fs_base; break;
            case 4: p = &c.gs_base_kernel; break;
            case 5: p = &c.gs_base_user; break;
            case 6: p = &c.event_callback_eip; break;
            case 7: p = &c.syscall_callback_eip; break;
            case 8: p = &c.failsafe_callback_eip; break;
            default: p = &c.trap_ctxt[255].address; break;
            }
            *p = bad;
            if ( check(&c) != -XEN_EINVAL )
            {
                printf("FAIL: %s: field %u = %#lx accepted\n",
                       unit_case_name, f, bad);
                unit_case_failed = 1;
            }
        }
    }
    /* A refused context keeps its selectors: nothing half-applied. */
    c = good();
    c.user_regs.cs = 0xe030;
    c.failsafe_callback_eip = BAD_VA;
    CHECK_EQ(check(&c), -XEN_EINVAL);
    CHECK_EQ(c.user_regs.cs, 0xe030);
}

static void test_ldt(void)
{
    struct vcpu_guest_context c = good();

    c.ldt_base = BAD_VA;                    /* non-canonical, no entries */
    CHECK_EQ(check(&c), -XEN_EINVAL);       /* __addr_ok() still refuses */
    c = good();
    c.ldt_base = BAD_VA;
    c.ldt_ents = 1;
    CHECK_EQ(check(&c), -XEN_EINVAL);
    c = good();
    c.ldt_base = SHIM_VA;                   /* canonical, but the shim's */
    c.ldt_ents = 1;
    CHECK_EQ(check(&c), -XEN_EINVAL);
    c.ldt_base = HYPERVISOR_VIRT_END - 0x1000;
    CHECK_EQ(check(&c), -XEN_EINVAL);
    c = good();
    c.ldt_base = 0x10008;                   /* unaligned */
    c.ldt_ents = 1;
    CHECK_EQ(check(&c), -XEN_EINVAL);
    c = good();
    c.ldt_base = 0x10000;
    c.ldt_ents = 8193;
    CHECK_EQ(check(&c), -XEN_EINVAL);
    c.ldt_ents = 8192;
    CHECK_EQ(check(&c), 0);
}

static void test_user_mode_needs_tables(void)
{
    struct vcpu_guest_context c = good();

    c.flags = VGCF_online;                  /* not in kernel */
    CHECK_EQ(check(&c), -XEN_EINVAL);
    c.ctrlreg[1] = 0x5678000;
    CHECK_EQ(check(&c), 0);
}

static uint16_t fcw(const struct vcpu_guest_context *c)
{
    uint16_t v;

    memcpy(&v, &c->fpu_ctxt.x[0], sizeof(v));
    return v;
}

static uint32_t mxcsr(const struct vcpu_guest_context *c)
{
    uint32_t v;

    memcpy(&v, &c->fpu_ctxt.x[24], sizeof(v));
    return v;
}

static bool fpu_zero_from(const struct vcpu_guest_context *c, unsigned int i)
{
    for ( ; i < sizeof(c->fpu_ctxt); i++ )
        if ( c->fpu_ctxt.x[i] )
            return false;
    return true;
}

/* The FPU image: Xen's default, the guest's, or a bad one cleared. */
static void test_fpu(void)
{
    struct vcpu_guest_context c = good();
    uint32_t m;

    memset(&c.fpu_ctxt, 0xa5, sizeof(c.fpu_ctxt));   /* ignored: no flag */
    CHECK_EQ(check(&c), 0);
    CHECK_EQ(fcw(&c), 0x037f);
    CHECK_EQ(mxcsr(&c), 0x1f80);
    CHECK(fpu_zero_from(&c, 28) && !c.fpu_ctxt.x[2]);

    c = good();
    c.flags |= VGCF_i387_valid;
    c.fpu_ctxt.x[0] = 0x7f;                 /* FCW 0x027f */
    c.fpu_ctxt.x[1] = 0x02;
    m = 0x1fa0;
    memcpy(&c.fpu_ctxt.x[24], &m, sizeof(m));
    c.fpu_ctxt.x[160] = 0x42;               /* XMM0 */
    CHECK_EQ(check(&c), 0);
    CHECK_EQ(fcw(&c), 0x027f);
    CHECK_EQ(mxcsr(&c), 0x1fa0);
    CHECK_EQ(c.fpu_ctxt.x[160], 0x42);

    /* DAZ (bit 6) isn't in this CPU's mask: FXRSTOR would fault. */
    m = 0x1fc0;
    memcpy(&c.fpu_ctxt.x[24], &m, sizeof(m));
    CHECK_EQ(check(&c), 0);
    CHECK(fpu_zero_from(&c, 0));
    m = 0x80001f80;
    memcpy(&c.fpu_ctxt.x[24], &m, sizeof(m));
    c.fpu_ctxt.x[0] = 1;
    CHECK_EQ(check(&c), 0);
    CHECK(fpu_zero_from(&c, 0));
}

/* A 32-bit guest's context, as xlat_vcpu_guest_context_from_compat()
 * leaves it: every value 32 bits wide. */
static struct vcpu_guest_context good32(void)
{
    struct vcpu_guest_context c;
    unsigned int i;

    memset(&c, 0, sizeof(c));
    c.flags = VGCF_in_kernel | VGCF_online;
    c.user_regs.rip = 0xc0100000;
    c.user_regs.rsp = 0xc0200000;
    c.user_regs.cs = 0xe019;                /* FLAT_RING1_CS */
    c.user_regs.ss = 0xe021;                /* FLAT_RING1_SS */
    c.user_regs.rflags = 0x2;
    c.kernel_ss = 0xe021;
    c.kernel_sp = 0xc0200000;
    c.event_callback_eip = 0xc0101000;
    c.ctrlreg[3] = 0x12340;                 /* a folded (extended) cr3 */
    for ( i = 0; i < 32; i++ )
    {
        c.trap_ctxt[i].vector = i;
        c.trap_ctxt[i].cs = 0xe019;
        c.trap_ctxt[i].address = 0xc0103000 + i * 16;
    }
    return c;
}

static int check32(struct vcpu_guest_context *c)
{
    unsigned int iopl = 0xdead;

    return pv_compat_vcpu_context_check(c, &iopl);
}

/* Xen's compat branch: RPL 0 raised to the kernel's 1, nothing else. */
static void test_compat_good(void)
{
    struct vcpu_guest_context c = good32();
    unsigned int iopl = 0;

    c.user_regs.rflags = 0x1002;            /* IOPL 1, IF clear */
    c.ctrlreg[0] = 0x8005003b;
    c.user_regs.cs = 0xe018;                /* RPL 0: raised to 1 */
    c.user_regs.ss = 0xe022;                /* RPL 2: kept */
    c.kernel_ss = 0xe020;
    c.trap_ctxt[3].cs = 0xe018;
    c.trap_ctxt[4].cs = 0xe02b;             /* ring 3: kept */
    CHECK_EQ(pv_compat_vcpu_context_check(&c, &iopl), 0);
    CHECK_EQ(iopl, 0x1000);
    CHECK_EQ(c.user_regs.rflags, 0x202);
    CHECK_EQ(c.ctrlreg[0], 0x8);
    CHECK_EQ(c.user_regs.cs, 0xe019);
    CHECK_EQ(c.user_regs.ss, 0xe022);
    CHECK_EQ(c.kernel_ss, 0xe021);
    CHECK_EQ(c.trap_ctxt[3].cs, 0xe019);
    CHECK_EQ(c.trap_ctxt[4].cs, 0xe02b);
    CHECK_EQ(c.trap_ctxt[5].cs, 0xe019);
    CHECK_EQ(pv_compat_selector(0xe018), 0xe019);
    CHECK_EQ(pv_compat_selector(0xe01b), 0xe01b);
    CHECK_EQ(pv_compat_selector(0), 1);

    /* No user page table, and no address check: all are 32 bits. */
    c = good32();
    c.flags = VGCF_online;
    CHECK_EQ(check32(&c), 0);
    c = good32();
    c.ldt_base = 0xf5800000;                /* the hole: mapped on demand */
    c.ldt_ents = 8192;
    c.user_regs.rip = 0xfffff000;
    CHECK_EQ(check32(&c), 0);
}

static void test_compat_ldt(void)
{
    struct vcpu_guest_context c = good32();

    c.ldt_base = 0x10008;                   /* unaligned */
    c.ldt_ents = 1;
    CHECK_EQ(check32(&c), -XEN_EINVAL);
    c = good32();
    c.ldt_base = 0x10000;
    c.ldt_ents = 8193;
    c.user_regs.cs = 0xe018;
    CHECK_EQ(check32(&c), -XEN_EINVAL);
    CHECK_EQ(c.user_regs.cs, 0xe018);       /* refused: left as it was */
    c.ldt_ents = 8192;
    CHECK_EQ(check32(&c), 0);
}

/* Descriptors: flat 4 GiB segments, type and DPL in the access byte. */
#define DESC(access)    (0x00cf00000000ffffULL | ((uint64_t)(access) << 40))

/* Loading ds/es/fs/gs from ring 0 (SDM vol. 3A, 5.7): what can't fault. */
static void test_data_selector(void)
{
    /* Null selectors load whatever the descriptor. */
    CHECK(pv_data_selector_loadable(0, 0));
    CHECK(pv_data_selector_loadable(3, DESC(0x00)));
    /* The LDT is mapped only on demand: never from ring 0. */
    CHECK(!pv_data_selector_loadable(0x7, DESC(0xf3)));
    /* Data: present, DPL at least RPL. */
    CHECK(pv_data_selector_loadable(0x7b, DESC(0xf3)));
    CHECK(pv_data_selector_loadable(0x78, DESC(0xf3)));
    CHECK(pv_data_selector_loadable(0x79, DESC(0xb3)));      /* DPL 1 */
    CHECK(!pv_data_selector_loadable(0x7b, DESC(0xb3)));     /* RPL 3 */
    CHECK(!pv_data_selector_loadable(0x7b, DESC(0x73)));     /* not present */
    CHECK(!pv_data_selector_loadable(0x78, 0));              /* empty entry */
    /* System descriptors: a TSS, a call gate. */
    CHECK(!pv_data_selector_loadable(0x78, DESC(0x89)));
    CHECK(!pv_data_selector_loadable(0x78, DESC(0xec)));
    /* Code: readable only; a conforming one whatever its DPL. */
    CHECK(!pv_data_selector_loadable(0x7b, DESC(0xf8)));
    CHECK(pv_data_selector_loadable(0x7b, DESC(0xfa)));
    CHECK(!pv_data_selector_loadable(0x7b, DESC(0xba)));     /* DPL 1 */
    CHECK(pv_data_selector_loadable(0x7b, DESC(0x9e)));      /* conforming */
    CHECK(!pv_data_selector_loadable(0x7b, DESC(0x9c)));     /* exec-only */
}

int main(void)
{
    RUN(test_good);
    RUN(test_canonical);
    RUN(test_ldt);
    RUN(test_user_mode_needs_tables);
    RUN(test_fpu);
    RUN(test_compat_good);
    RUN(test_compat_ldt);
    RUN(test_data_selector);
    UNIT_EXIT();
}
