/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the generated compat layout (build/include/
 * compat-layout.h, read through pv/compat/layout.h): its sizes and the
 * accessors against bytes gcc -m32 laid out from named members
 * (compat-fixtures32.c); the structures pv/compat/same.h passes
 * untranslated, byte for byte against the native layout; and the xen.h
 * layouts against a third source, the packed <xen/foreign/x86_32.h>
 * that Xen's mkheader.py writes.
 */
#include "tests/unit/compat-test.h"
#include "pv/compat/layout.h"
#include "pv/compat/check-same.c"
/* Its own xen_wc_sec_hi is the 32-bit one; we name members directly. */
#undef xen_wc_sec_hi
#include <xen/foreign/x86_32.h>

/* The generator's sizeof of each translated structure, against gcc's. */
static void test_sizes(void)
{
#define SIZE(s) CHECK_EQ(COMPAT_SIZEOF(s), fx32_##s##_size)
    SIZE(start_info);
    SIZE(cpu_user_regs);
    SIZE(trap_info);
    SIZE(vcpu_guest_context);
    SIZE(mmuext_op);
    SIZE(multicall_entry);
    SIZE(shared_info);
    SIZE(vcpu_runstate_info);
    SIZE(vcpu_register_runstate_memory_area);
    SIZE(vcpu_register_time_memory_area);
    SIZE(vcpu_set_singleshot_timer);
    SIZE(callback_register);
    SIZE(sched_poll);
    SIZE(xen_platform_parameters);
    SIZE(xen_memory_reservation);
    SIZE(xen_memory_exchange);
    SIZE(xen_add_to_physmap);
    SIZE(xen_add_to_physmap_batch);
    SIZE(xen_remove_from_physmap);
    SIZE(xen_memory_map);
    SIZE(xen_pod_target);
    SIZE(xen_machphys_mfn_list);
    SIZE(xen_machphys_mapping);
    SIZE(gnttab_setup_table);
    SIZE(gnttab_transfer);
    SIZE(gnttab_copy);
    SIZE(gnttab_get_status_frames);
    SIZE(physdev_set_iobitmap);
    SIZE(physdev_apic);
    SIZE(physdev_map_pirq);
    SIZE(physdev_pirq_eoi_gmfn);
#undef SIZE
    /* Elements of guest arrays: 4 bytes for a 32-bit guest. */
    CHECK_EQ(COMPAT_SIZEOF(xen_pfn_t), 4);
    CHECK_EQ(COMPAT_SIZEOF(xen_ulong_t), 4);
    CHECK_EQ(COMPAT_SIZEOF(ulong), 4);
}

/* xen-x86_32.h's constants, printed signed by gcc, come back unsigned. */
static void test_constants(void)
{
    CHECK_EQ(COMPAT_HYPERVISOR_VIRT_START, 0xf5800000);
    CHECK_EQ(COMPAT_MACH2PHYS_VIRT_START, COMPAT_HYPERVISOR_VIRT_START);
    CHECK_EQ(COMPAT_MACH2PHYS_VIRT_END, 0xf6800000);
    CHECK_EQ(COMPAT_FLAT_KERNEL_CS, FLAT_RING1_CS_X86_32);
    CHECK_EQ(COMPAT_FLAT_KERNEL_DS, FLAT_RING1_DS_X86_32);
    CHECK_EQ(COMPAT_FLAT_KERNEL_SS, FLAT_RING1_SS_X86_32);
    CHECK_EQ(COMPAT_FLAT_USER_CS & 3, 3);
    CHECK_EQ(COMPAT_FLAT_USER_SS, COMPAT_FLAT_USER_DS);
}

/*
 * The structures Xen checks rather than translates: the same named
 * values, compiled -m32 and natively, make the same bytes.
 */
static void test_same(void)
{
#define SAME(type, name) do {                                           \
        static const type n_ = FXS_##name;                              \
                                                                        \
        CHECK_EQ(fx32_##name##_size, sizeof(type));                     \
        CHECK_EQ(COMPAT_SIZEOF(name), sizeof(type));                    \
        check_bytes(#name, fx32_##name, &n_, sizeof(type));             \
    } while ( 0 );
    COMPAT_SAME_FIXTURES(SAME)
#undef SAME
}

/* Reading the shared page and vcpu_info in place, by name. */
static void test_shared_info_get(void)
{
    const void *s = fx32_shared_info;
    const void *v0 = compat_ptr_idx(s, shared_info, vcpu_info, 0);
    const void *v31 = compat_ptr_idx(s, shared_info, vcpu_info, 31);

    CHECK_EQ(COMPAT_NR(shared_info, vcpu_info), 32);
    CHECK_EQ(COMPAT_NR(shared_info, evtchn_pending), 32);   /* 1024 ports */
    CHECK_EQ(compat_get(v0, vcpu_info, evtchn_upcall_pending), 0x01);
    CHECK_EQ(compat_get(v0, vcpu_info, evtchn_upcall_mask), 0x02);
    CHECK_EQ(compat_get(v0, vcpu_info, evtchn_pending_sel), 0x10000003);
    CHECK_EQ(compat_get(v0, vcpu_info, arch__cr2), 0xc0badba4);
    CHECK_EQ(compat_get(compat_ptr(v0, vcpu_info, time), vcpu_time_info,
                        system_time), 0x1112131415161718ULL);
    CHECK_EQ(compat_get(v31, vcpu_info, evtchn_pending_sel), 0x80000013);
    CHECK_EQ(compat_get(v31, vcpu_info, arch__cr2), 0xc0badbb4);
    CHECK_EQ(compat_get_idx(s, shared_info, evtchn_pending, 0), 1);
    CHECK_EQ(compat_get_idx(s, shared_info, evtchn_pending, 31), 0x80000000);
    CHECK_EQ(compat_get_idx(s, shared_info, evtchn_mask, 5), 0x5a5a5a5a);
    CHECK_EQ(compat_get_idx(s, shared_info, evtchn_mask, 31), 0xfedcba98);
    CHECK_EQ(compat_get(s, shared_info, wc_version), 7);
    CHECK_EQ(compat_get(s, shared_info, wc_sec), 0x65432100);
    CHECK_EQ(compat_get(s, shared_info, wc_nsec), 0x3b9ac9ff);
    CHECK_EQ(compat_get(s, shared_info, arch__max_pfn), 0x00040001);
    CHECK_EQ(compat_get(s, shared_info, arch__pfn_to_mfn_frame_list_list),
             0x000c0ffe);
    CHECK_EQ(compat_get(s, shared_info, arch__nmi_reason), 2);
    CHECK_EQ(compat_get(s, shared_info, arch__p2m_cr3), 0xabc00ab0);
    CHECK_EQ(compat_get(s, shared_info, arch__p2m_vaddr), 0xd0000000);
    CHECK_EQ(compat_get(s, shared_info, arch__p2m_generation), 0x42);
    CHECK_EQ(compat_get(s, shared_info, arch__wc_sec_hi), 1);
}

/* Writing every value of the fixture into a clear page rebuilds it. */
static void test_shared_info_put(void)
{
    uint8_t *s = calloc(1, fx32_shared_info_size);
    void *v0 = compat_ptr_idx(s, shared_info, vcpu_info, 0);
    void *v31 = compat_ptr_idx(s, shared_info, vcpu_info, 31);
    void *t = compat_ptr(v0, vcpu_info, time);

    compat_put(v0, vcpu_info, evtchn_upcall_pending, 0x01);
    compat_put(v0, vcpu_info, evtchn_upcall_mask, 0x02);
    compat_put(v0, vcpu_info, evtchn_pending_sel, 0x10000003);
    compat_put(v0, vcpu_info, arch__cr2, 0xc0badba4);
    compat_put(t, vcpu_time_info, version, 0x105);
    compat_put(t, vcpu_time_info, tsc_timestamp, 0x0102030405060708ULL);
    compat_put(t, vcpu_time_info, system_time, 0x1112131415161718ULL);
    compat_put(t, vcpu_time_info, tsc_to_system_mul, 0x21222324);
    compat_put(t, vcpu_time_info, tsc_shift, -3);
    compat_put(t, vcpu_time_info, flags, 0x01);
    compat_put(v31, vcpu_info, evtchn_upcall_pending, 0x11);
    compat_put(v31, vcpu_info, evtchn_upcall_mask, 0x12);
    compat_put(v31, vcpu_info, evtchn_pending_sel, 0x80000013);
    compat_put(v31, vcpu_info, arch__cr2, 0xc0badbb4);
    compat_put_idx(s, shared_info, evtchn_pending, 0, 1);
    compat_put_idx(s, shared_info, evtchn_pending, 31, 0x80000000);
    compat_put_idx(s, shared_info, evtchn_mask, 5, 0x5a5a5a5a);
    compat_put_idx(s, shared_info, evtchn_mask, 31, 0xfedcba98);
    compat_put(s, shared_info, wc_version, 7);
    compat_put(s, shared_info, wc_sec, 0x65432100);
    compat_put(s, shared_info, wc_nsec, 0x3b9ac9ff);
    compat_put(s, shared_info, arch__max_pfn, 0x00040001);
    compat_put(s, shared_info, arch__pfn_to_mfn_frame_list_list, 0xc0ffe);
    compat_put(s, shared_info, arch__nmi_reason, 2);
    compat_put(s, shared_info, arch__p2m_cr3, 0xabc00ab0);
    compat_put(s, shared_info, arch__p2m_vaddr, 0xd0000000);
    compat_put(s, shared_info, arch__p2m_generation, 0x42);
    compat_put(s, shared_info, arch__wc_sec_hi, 1);
    check_bytes("shared_info", s, fx32_shared_info, fx32_shared_info_size);
    free(s);
}

/* Nested members and array elements by name, and the fit check. */
static void test_nested(void)
{
    const void *c = fx32_vcpu_guest_context;
    const void *si = fx32_start_info;

    CHECK_EQ(compat_get(c, vcpu_guest_context, user_regs__eip), 0xc0100a0a);
    CHECK_EQ(compat_get(compat_ptr(c, vcpu_guest_context, user_regs),
                        cpu_user_regs, esp), 0xc0200e0e);
    CHECK_EQ(compat_get_idx(c, vcpu_guest_context, trap_ctxt__address, 14),
             0xc0101400);
    CHECK_EQ(compat_get_idx(c, vcpu_guest_context, trap_ctxt__address, 255),
             0xfffffff0);
    CHECK_EQ(compat_get(compat_ptr_idx(c, vcpu_guest_context, trap_ctxt, 14),
                        trap_info, cs), 0xe01b);
    CHECK_EQ(compat_get_idx(c, vcpu_guest_context, gdt_frames, 15),
             0xfffffff3);
    CHECK_EQ(compat_get_idx(c, vcpu_guest_context, ctrlreg, 3), 0xabcde123);
    CHECK_EQ(compat_get(c, vcpu_guest_context, event_callback_cs),
             FX_EVENT_CS);
    CHECK_EQ(compat_get(c, vcpu_guest_context, failsafe_callback_cs),
             FX_FAILSAFE_CS);
    CHECK_STR(compat_ptr(si, start_info, magic), "xen-3.0-x86_32p");
    CHECK_EQ(compat_get(si, start_info, console__domU__mfn), 0x00fedcba);
    CHECK_EQ(compat_get(fx32_start_info_dom0, start_info,
                        console__dom0__info_size), 0x1122007c);
    CHECK(compat_fits(0xffffffffUL, start_info, nr_pages));
    CHECK(!compat_fits(0x100000000UL, start_info, nr_pages));
    CHECK(compat_fits(0xffff, cpu_user_regs, cs));
    CHECK(!compat_fits(0x10000, cpu_user_regs, cs));
    CHECK(compat_fits(~0ULL, vcpu_runstate_info, state_entry_time));
}

/*
 * Xen's own 32-bit rendering of xen.h (mkheader.py, packed with explicit
 * widths): the same initializers give the bytes gcc -m32 gave.
 */
static void test_foreign(void)
{
#define FOREIGN(type, name) do {                                        \
        static const struct type##_x86_32 f_ = FX32_##name;             \
                                                                        \
        CHECK_EQ(sizeof(f_), fx32_##name##_size);                       \
        check_bytes(#name, &f_, fx32_##name, sizeof(f_));               \
    } while ( 0 )
    FOREIGN(start_info, start_info);
    FOREIGN(start_info, start_info_dom0);
    FOREIGN(cpu_user_regs, cpu_user_regs);
    FOREIGN(trap_info, trap_info);
    FOREIGN(vcpu_guest_context, vcpu_guest_context);
    FOREIGN(shared_info, shared_info);
#undef FOREIGN
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_constants);
    RUN(test_same);
    RUN(test_shared_info_get);
    RUN(test_shared_info_put);
    RUN(test_nested);
    RUN(test_foreign);
    UNIT_EXIT();
}
