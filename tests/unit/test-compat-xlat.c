/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/compat/'s translations against the 32-bit layout
 * gcc -m32 gives Debian's headers (compat-fixtures32.c): each structure
 * both ways it is translated, with the guest's hostile values (handles
 * at the top of 4 GiB, junk in padding and in a union's unread half)
 * and the shim's values that don't fit a 32-bit member.  The xen.h,
 * vcpu.h, callback.h, sched.h and version.h structures;
 * test-compat-ops.c has memory, grant and physdev ops.
 */
#include "tests/unit/compat-test.h"
#include "pv/compat/xlat-xen.c"
#include "pv/compat/xlat-vcpu.c"

static void test_start_info(void)
{
    TO(xlat_start_info_to_compat, struct start_info, start_info);
    TO(xlat_start_info_to_compat, struct start_info, start_info_dom0);
}

/* Each narrowed member alone at 2^32 is refused; 2^32 - 1 is not. */
static void test_start_info_range(void)
{
    static const struct start_info fx = FX64_start_info;
    struct start_info n;
    uint8_t c[sizeof(n)];

#define RANGE(m) do {                                                   \
        n = fx; n.m = 1UL << 32;                                        \
        CHECK_EQ(xlat_start_info_to_compat(c, &n), -XEN_ERANGE);        \
        n.m = 0xffffffffUL;                                             \
        CHECK_EQ(xlat_start_info_to_compat(c, &n), 0);                  \
    } while ( 0 )
    RANGE(nr_pages);
    RANGE(shared_info);
    RANGE(store_mfn);
    RANGE(console.domU.mfn);
    RANGE(pt_base);
    RANGE(nr_pt_frames);
    RANGE(mfn_list);
    RANGE(mod_start);
    RANGE(mod_len);
    RANGE(first_p2m_pfn);
    RANGE(nr_p2m_frames);
#undef RANGE
    /* dom0's console is two uint32_t: nothing to refuse. */
    n = fx;
    n.flags |= SIF_INITDOMAIN;
    n.console.dom0.info_off = n.console.dom0.info_size = 0xffffffff;
    CHECK_EQ(xlat_start_info_to_compat(c, &n), 0);
}

static void test_cpu_user_regs(void)
{
    FROM(xlat_cpu_user_regs_from_compat, struct cpu_user_regs,
         cpu_user_regs);
    /* The guest's padding stays out of the native registers. */
    FROM(xlat_cpu_user_regs_from_compat, struct cpu_user_regs,
         cpu_user_regs_junk);
}

static void test_trap_info(void)
{
    FROM(xlat_trap_info_from_compat, struct trap_info, trap_info);
}

static void test_vcpu_guest_context(void)
{
    static const struct vcpu_guest_context want = FX64_vcpu_guest_context;
    void *c = dup_exact(fx32_vcpu_guest_context,
                        fx32_vcpu_guest_context_size);
    struct vcpu_guest_context *n = malloc(sizeof(*n));
    struct compat_callback_cs cs = { 0xa5a5a5a5, 0xa5a5a5a5 };

    memset(n, 0xa5, sizeof(*n));
    xlat_vcpu_guest_context_from_compat(n, &cs, c);
    check_bytes("vcpu_guest_context", n, &want, sizeof(*n));
    CHECK_EQ(cs.event, FX_EVENT_CS);
    CHECK_EQ(cs.failsafe, FX_FAILSAFE_CS);
    /* Spot checks by name, which say more than a byte offset. */
    CHECK_EQ(n->user_regs.rip, 0xc0100a0a);
    CHECK_EQ(n->trap_ctxt[255].address, 0xfffffff0);
    CHECK_EQ(n->gdt_frames[15], 0xfffffff3);
    CHECK_EQ(n->ctrlreg[3], 0xabcde123);    /* still folded */
    CHECK_EQ(n->syscall_callback_eip, 0);
    free(n);
    free(c);
}

static void test_mmuext_op(void)
{
    FROM(xlat_mmuext_op_from_compat, struct mmuext_op, mmuext_op);
    FROM(xlat_mmuext_op_from_compat, struct mmuext_op, mmuext_op_copy);
}

static void test_multicall_entry(void)
{
    FROM(xlat_multicall_entry_from_compat, struct multicall_entry,
         multicall_entry);
    TO_VOID(xlat_multicall_entry_to_compat, struct multicall_entry,
            multicall_entry);
    /* -22 as a 64-bit long comes out as the 32-bit guest's -22. */
    TO_VOID(xlat_multicall_entry_to_compat, struct multicall_entry,
            multicall_entry_err);
}

static void test_vcpu_runstate_info(void)
{
    TO_VOID(xlat_vcpu_runstate_info_to_compat, struct vcpu_runstate_info,
            vcpu_runstate_info);
}

/*
 * Only the 4-byte handle is read, as Xen's compat_vcpu_op() reads it:
 * the translation gets exactly 4 bytes, so ASan stops a wider read.
 */
static void test_runstate_area(void)
{
    struct vcpu_register_runstate_memory_area n;
    struct vcpu_register_time_memory_area t;
    void *c;

    c = dup_exact(fx32_vcpu_register_runstate_memory_area, 4);
    xlat_vcpu_register_runstate_memory_area_from_compat(&n, c);
    CHECK_EQ(n.addr.p, 0xc0a0b0c0);
    free(c);
    FROM(xlat_vcpu_register_runstate_memory_area_from_compat,
         struct vcpu_register_runstate_memory_area,
         vcpu_register_runstate_memory_area);
    c = dup_exact(fx32_vcpu_register_runstate_memory_area_hi,
                  fx32_vcpu_register_runstate_memory_area_hi_size);
    xlat_vcpu_register_runstate_memory_area_from_compat(&n, c);
    CHECK_EQ(n.addr.p, 0xc0a0b0c0);         /* the upper half ignored */
    free(c);
    c = dup_exact(fx32_vcpu_register_runstate_memory_area_top, 4);
    xlat_vcpu_register_runstate_memory_area_from_compat(&n, c);
    CHECK_EQ(n.addr.p, 0x00000000fffff000ULL);  /* never sign-extended */
    free(c);

    FROM(xlat_vcpu_register_time_memory_area_from_compat,
         struct vcpu_register_time_memory_area,
         vcpu_register_time_memory_area);
    c = dup_exact(fx32_vcpu_register_time_memory_area_hi, 4);
    xlat_vcpu_register_time_memory_area_from_compat(&t, c);
    CHECK_EQ(t.addr.p, 0xc0a0b0d0);
    free(c);
}

static void test_singleshot_timer(void)
{
    FROM(xlat_vcpu_set_singleshot_timer_from_compat,
         struct vcpu_set_singleshot_timer, vcpu_set_singleshot_timer);
}

static void test_callback_register(void)
{
    static const struct callback_register want = FX64_callback_register;
    void *c = dup_exact(fx32_callback_register, fx32_callback_register_size);
    struct callback_register n;
    unsigned int cs = 0xa5a5a5a5;

    memset(&n, 0xa5, sizeof(n));
    xlat_callback_register_from_compat(&n, &cs, c);
    check_bytes("callback_register", &n, &want, sizeof(n));
    CHECK_EQ(cs, FX_CB_CS);
    free(c);
}

static void test_sched_poll(void)
{
    struct sched_poll n;
    void *c;

    FROM(xlat_sched_poll_from_compat, struct sched_poll, sched_poll);
    c = dup_exact(fx32_sched_poll_top, fx32_sched_poll_top_size);
    xlat_sched_poll_from_compat(&n, c);
    CHECK_EQ((unsigned long)n.ports.p, 0x00000000fffff000UL);
    free(c);
}

static void test_platform_parameters(void)
{
    struct xen_platform_parameters n = { .virt_start = HYPERVISOR_VIRT_START };
    uint8_t c[sizeof(n)];

    TO(xlat_platform_parameters_to_compat, struct xen_platform_parameters,
       xen_platform_parameters);
    CHECK_EQ(xlat_platform_parameters_to_compat(c, &n), -XEN_ERANGE);
}

int main(void)
{
    RUN(test_start_info);
    RUN(test_start_info_range);
    RUN(test_cpu_user_regs);
    RUN(test_trap_info);
    RUN(test_vcpu_guest_context);
    RUN(test_mmuext_op);
    RUN(test_multicall_entry);
    RUN(test_vcpu_runstate_info);
    RUN(test_runstate_area);
    RUN(test_singleshot_timer);
    RUN(test_callback_register);
    RUN(test_sched_poll);
    RUN(test_platform_parameters);
    UNIT_EXIT();
}
