/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Values for the compat translation tests, as designated initializers:
 * member names and values only, no layout.  FX32_x is compiled with
 * gcc -m32 against Debian's headers (compat-fixtures32.c), so the
 * compiler lays it out as a 32-bit guest would; the 64-bit tests link
 * those bytes in as fx32_x and compare them with what pv/compat makes of
 * FX64_x, the same values in the native structure.  Nothing here or in
 * the tests uses build/include/compat-layout.h, so a wrong offset there
 * or a wrong member in a translation shows as a byte that differs.
 *
 * Every member gets its own value, most with no zero byte, so a member
 * copied short, twice or to the wrong place shows.
 */
#ifndef TESTS_UNIT_COMPAT_FIXTURES_H
#define TESTS_UNIT_COMPAT_FIXTURES_H

#define HANDLE(v)   ((void *)(v))

/* ---- xen.h ---- */

#define FX_START_INFO                                                   \
    .magic = "xen-3.0-x86_32p",                                         \
    .nr_pages = 0x01234567,                                             \
    .shared_info = 0x7f6e5000,                                          \
    .store_mfn = 0x00abcdef,                                            \
    .store_evtchn = 0x11223344,                                         \
    .pt_base = 0xc1234000,                                              \
    .nr_pt_frames = 0x1f2f3f4f,                                         \
    .mfn_list = 0xc2345000,                                             \
    .mod_start = 0xc3456000,                                            \
    .mod_len = 0x00765432,                                              \
    .cmd_line = "console=hvc0 the compat fixture",                      \
    .first_p2m_pfn = 0x0107abcd,                                        \
    .nr_p2m_frames = 0x0a0b0c0d

#define FX32_start_info {                                               \
    FX_START_INFO,                                                      \
    .flags = SIF_MOD_START_PFN | SIF_MULTIBOOT_MOD | 0x40000000,        \
    .console.domU = { .mfn = 0x00fedcba, .evtchn = 0x55667788 },        \
}
#define FX64_start_info FX32_start_info

#define FX32_start_info_dom0 {                                          \
    FX_START_INFO,                                                      \
    .flags = SIF_INITDOMAIN | SIF_PRIVILEGED,                           \
    .console.dom0 = { .info_off = 0x000009a8, .info_size = 0x1122007c },\
}
#define FX64_start_info_dom0 FX32_start_info_dom0

/* The same member names exist in both: rax is eax's alias in 64-bit. */
#define FX_REGS                                                         \
    .ebx = 0x0b0b0b01, .ecx = 0x0c0c0c02, .edx = 0x0d0d0d03,            \
    .esi = 0x51515104, .edi = 0xd1d1d105, .ebp = 0xb0b0b006,            \
    .eax = 0xfafafa07, .error_code = 0x0e08, .entry_vector = 0x0e09,    \
    .eip = 0xc0100a0a, .cs = 0xe019, .saved_upcall_mask = 0x0c,         \
    .eflags = 0x00243a0d, .esp = 0xc0200e0e, .ss = 0xe021,              \
    .es = 0xe02b, .ds = 0xe031, .fs = 0x00d3, .gs = 0x00e3

#define FX32_cpu_user_regs { FX_REGS }
#define FX64_cpu_user_regs { FX_REGS }
/* A guest's junk in the padding must not reach the native registers. */
#define FX32_cpu_user_regs_junk {                                       \
    FX_REGS, ._pad0 = 0xff, ._pad1 = 0xffff, ._pad2 = 0xffff,           \
    ._pad3 = 0xffff, ._pad4 = 0xffff, ._pad5 = 0xffff,                  \
}
#define FX64_cpu_user_regs_junk FX64_cpu_user_regs

#define FX32_trap_info {                                                \
    .vector = 0x0e, .flags = 0x13, .cs = 0xe019, .address = 0xc0104321 \
}
#define FX64_trap_info FX32_trap_info

/* The callbacks' selectors, which the native context has no room for. */
#define FX_EVENT_CS     0x0000e019
#define FX_FAILSAFE_CS  0x1234e01b

#define FX_VCPU_CONTEXT                                                 \
    .fpu_ctxt.x = { [0] = 0x7f, [1] = 0x03, [24] = 0x1f, [511] = 0x5a }, \
    .flags = 0x0000002c,                                                \
    .user_regs = { FX_REGS },                                           \
    .trap_ctxt = {                                                      \
        [0] = { 0x00, 0x01, 0xe019, 0xc0100000 },                       \
        [14] = { 0x0e, 0x11, 0xe01b, 0xc0101400 },                      \
        [128] = { 0x80, 0x13, 0xe019, 0xc0108000 },                     \
        [255] = { 0xff, 0x03, 0xe01b, 0xfffffff0 },                     \
    },                                                                  \
    .ldt_base = 0xc0200000, .ldt_ents = 0x000001ff,                     \
    .gdt_frames = { [0] = 0x00012341, [1] = 0x00012342,                 \
                    [15] = 0xfffffff3 },                                \
    .gdt_ents = 0x00000020,                                             \
    .kernel_ss = 0x0000e021, .kernel_sp = 0xc0300ff0,                   \
    .ctrlreg = { 0x8005003b, 0x01010101, 0x02020202, 0xabcde123,        \
                 0x000006f0, 0x05050505, 0x06060606, 0x07070707 },      \
    .debugreg = { 0xd0000000, 0xd1111111, 0xd2222222, 0xd3333333,       \
                  0xd4444444, 0xd5555555, 0xffff0ff0, 0x00000400 },     \
    .event_callback_eip = 0xc0001004,                                   \
    .failsafe_callback_eip = 0xc0002008,                                \
    .vm_assist = 0x00000025

#define FX32_vcpu_guest_context {                                       \
    FX_VCPU_CONTEXT,                                                    \
    .event_callback_cs = FX_EVENT_CS,                                   \
    .failsafe_callback_cs = FX_FAILSAFE_CS,                             \
}
#define FX64_vcpu_guest_context { FX_VCPU_CONTEXT }

#define FX32_mmuext_op {                                                \
    .cmd = MMUEXT_INVLPG_MULTI, .arg1.linear_addr = 0xc0805000,         \
    .arg2.vcpumask.p = HANDLE(0xc0906008),                              \
}
#define FX64_mmuext_op FX32_mmuext_op
/* A compat frame number with bit 31 set is a frame, not a sign. */
#define FX32_mmuext_op_copy {                                           \
    .cmd = MMUEXT_COPY_PAGE, .arg1.mfn = 0x80706050,                    \
    .arg2.src_mfn = 0xf0e0d0c0,                                         \
}
#define FX64_mmuext_op_copy FX32_mmuext_op_copy

#define FX_MULTICALL_ARGS                                               \
    .args = { 0xa1a1a101, 0xa2a2a202, 0xa3a3a303, 0xa4a4a404,           \
              0x7fffffff, 0xfffffff6 }
#define FX32_multicall_entry {                                          \
    .op = 0x0a0b0c26, .result = 0x7eadbeef, FX_MULTICALL_ARGS,          \
}
#define FX64_multicall_entry FX32_multicall_entry
/* The cast gives 0xffffffea in 32 bits, 0xffff...ffea in 64. */
#define FX32_multicall_entry_err {                                      \
    .op = 0x0a0b0c26, .result = (xen_ulong_t)-22, FX_MULTICALL_ARGS,    \
}
#define FX64_multicall_entry_err FX32_multicall_entry_err

/* The shared page: for the accessors, laid out only in 32 bits. */
#define FX32_shared_info {                                              \
    .vcpu_info = {                                                      \
        [0] = { .evtchn_upcall_pending = 0x01,                          \
                .evtchn_upcall_mask = 0x02,                             \
                .evtchn_pending_sel = 0x10000003,                       \
                .arch.cr2 = 0xc0badba4,                                 \
                .time = { .version = 0x00000105,                        \
                          .tsc_timestamp = 0x0102030405060708ULL,       \
                          .system_time = 0x1112131415161718ULL,         \
                          .tsc_to_system_mul = 0x21222324,              \
                          .tsc_shift = -3, .flags = 0x01 } },           \
        [31] = { .evtchn_upcall_pending = 0x11,                         \
                 .evtchn_upcall_mask = 0x12,                            \
                 .evtchn_pending_sel = 0x80000013,                      \
                 .arch.cr2 = 0xc0badbb4 },                              \
    },                                                                  \
    .evtchn_pending = { [0] = 0x00000001, [31] = 0x80000000 },          \
    .evtchn_mask = { [5] = 0x5a5a5a5a, [31] = 0xfedcba98 },             \
    .wc_version = 0x00000007,                                           \
    .wc_sec = 0x65432100,                                               \
    .wc_nsec = 0x3b9ac9ff,                                              \
    .arch = { .max_pfn = 0x00040001,                                    \
              .pfn_to_mfn_frame_list_list = 0x000c0ffe,                 \
              .nmi_reason = 0x00000002, .p2m_cr3 = 0xabc00ab0,          \
              .p2m_vaddr = 0xd0000000, .p2m_generation = 0x00000042,    \
              .wc_sec_hi = 0x00000001 },                                \
}

/* ---- vcpu.h, callback.h, sched.h, version.h ---- */

#define FX32_vcpu_runstate_info {                                       \
    .state = 0x01020302, .state_entry_time = 0x1122334455667788ULL,     \
    .time = { 0xa1a2a3a4a5a6a7a8ULL, 0xb1b2b3b4b5b6b7b8ULL,             \
              0xc1c2c3c4c5c6c7c8ULL, 0xd1d2d3d4d5d6d7d8ULL },           \
}
#define FX64_vcpu_runstate_info FX32_vcpu_runstate_info

#define FX32_vcpu_register_runstate_memory_area {                       \
    .addr.h.p = HANDLE(0xc0a0b0c0) }
#define FX64_vcpu_register_runstate_memory_area \
    FX32_vcpu_register_runstate_memory_area
/* The union's upper half set: Xen never reads it, nor may we. */
#define FX32_vcpu_register_runstate_memory_area_hi {                    \
    .addr.p = 0xdeadbeefc0a0b0c0ULL }
/* A handle in the top of the 32-bit space: zero-extended. */
#define FX32_vcpu_register_runstate_memory_area_top {                   \
    .addr.h.p = HANDLE(0xfffff000) }

#define FX32_vcpu_register_time_memory_area {                           \
    .addr.h.p = HANDLE(0xc0a0b0d0) }
#define FX64_vcpu_register_time_memory_area \
    FX32_vcpu_register_time_memory_area
#define FX32_vcpu_register_time_memory_area_hi {                        \
    .addr.p = 0x8badf00dc0a0b0d0ULL }

#define FX32_vcpu_set_singleshot_timer {                                \
    .timeout_abs_ns = 0x0123456789abcdefULL, .flags = 0x01000001 }
#define FX64_vcpu_set_singleshot_timer FX32_vcpu_set_singleshot_timer

#define FX_CB_CS    0x0000e019
#define FX32_callback_register {                                        \
    .type = 0x1101, .flags = 0x2202,                                    \
    .address = { .cs = FX_CB_CS, .eip = 0xc0de0004 },                   \
}
#define FX64_callback_register {                                        \
    .type = 0x1101, .flags = 0x2202, .address = 0xc0de0004 }

#define FX32_sched_poll {                                               \
    .ports.p = HANDLE(0xc0d00010), .nr_ports = 0x03040506,              \
    .timeout = 0x0011223344556677ULL,                                   \
}
#define FX64_sched_poll FX32_sched_poll
#define FX32_sched_poll_top {                                           \
    .ports.p = HANDLE(0xfffff000), .nr_ports = 0x00000001 }

/* HYPERVISOR_COMPAT_VIRT_START's default for a PAE guest */
#define FX32_xen_platform_parameters { .virt_start = 0xf5800000 }
#define FX64_xen_platform_parameters FX32_xen_platform_parameters

/* ---- memory.h ---- */

#define FX_RESERVATION_IN                                               \
    .extent_start.p = HANDLE(0xc0e00020), .nr_extents = 0x01020304,     \
    .extent_order = 0x05060709, .mem_flags = 0x0a0b0c0d, .domid = 0x7ff2
#define FX_RESERVATION_OUT                                              \
    .extent_start.p = HANDLE(0xc0e10024), .nr_extents = 0x11121314,     \
    .extent_order = 0x15161718, .mem_flags = 0x191a1b1c, .domid = 0x7ff0

#define FX32_xen_memory_reservation { FX_RESERVATION_IN }
#define FX64_xen_memory_reservation FX32_xen_memory_reservation
#define FX32_xen_memory_reservation_top {                               \
    .extent_start.p = HANDLE(0xfffff000), .nr_extents = 0xffffffff }

#define FX32_xen_memory_exchange {                                      \
    .in = { FX_RESERVATION_IN }, .out = { FX_RESERVATION_OUT },         \
    .nr_exchanged = 0x21222324,                                         \
}
#define FX64_xen_memory_exchange FX32_xen_memory_exchange

#define FX32_xen_add_to_physmap {                                       \
    .domid = 0x7ff0, .size = 0x1020, .space = 0x03000003,               \
    .idx = 0x00054321, .gpfn = 0x010fedcb,                              \
}
#define FX64_xen_add_to_physmap FX32_xen_add_to_physmap

#define FX32_xen_add_to_physmap_batch {                                 \
    .domid = 0x7ff0, .space = 0x0404, .size = 0x2020,                   \
    .u.foreign_domid = 0x0111, .idxs.p = HANDLE(0xc0f00030),            \
    .gpfns.p = HANDLE(0xc0f10040), .errs.p = HANDLE(0xc0f20050),        \
}
#define FX64_xen_add_to_physmap_batch FX32_xen_add_to_physmap_batch

#define FX32_xen_remove_from_physmap { .domid = 0x7ff0, .gpfn = 0x010abcde }
#define FX64_xen_remove_from_physmap FX32_xen_remove_from_physmap

#define FX32_xen_memory_map {                                           \
    .nr_entries = 0x01020380, .buffer.p = HANDLE(0xc1000060) }
#define FX64_xen_memory_map FX32_xen_memory_map

#define FX32_xen_pod_target {                                           \
    .target_pages = 0x1111222233334444ULL,                              \
    .tot_pages = 0x5555666677778888ULL,                                 \
    .pod_cache_pages = 0x99990000aaaabbbbULL,                           \
    .pod_entries = 0xccccddddeeeeffffULL, .domid = 0x7ff3,              \
}
#define FX64_xen_pod_target FX32_xen_pod_target

#define FX32_xen_machphys_mfn_list {                                    \
    .max_extents = 0x01010110, .extent_start.p = HANDLE(0xc1100070),    \
    .nr_extents = 0x02020207,                                           \
}
#define FX64_xen_machphys_mfn_list FX32_xen_machphys_mfn_list

#define FX32_xen_machphys_mapping {                                     \
    .v_start = 0xf5800000, .v_end = 0xf6800000, .max_mfn = 0x013fffff }
#define FX64_xen_machphys_mapping FX32_xen_machphys_mapping

/* ---- grant_table.h ---- */

#define FX32_gnttab_setup_table {                                       \
    .dom = 0x7ff0, .nr_frames = 0x01020304, .status = -3,               \
    .frame_list.p = HANDLE(0xc1200080),                                 \
}
#define FX64_gnttab_setup_table FX32_gnttab_setup_table

#define FX32_gnttab_transfer {                                          \
    .mfn = 0x80123456, .domid = 0x0201, .ref = 0x03040abc, .status = -5 }
#define FX64_gnttab_transfer FX32_gnttab_transfer

#define FX32_gnttab_copy {                                              \
    .source = { .u.ref = 0x01020def, .domid = 0x0302, .offset = 0x0123 }, \
    .dest = { .u.gmfn = 0x80234567, .domid = 0x7ff0, .offset = 0x0456 }, \
    .len = 0x0789, .flags = GNTCOPY_source_gref, .status = -7,          \
}
#define FX64_gnttab_copy FX32_gnttab_copy

#define FX32_gnttab_get_status_frames {                                 \
    .nr_frames = 0x01020302, .dom = 0x7ff0, .status = -1,               \
    .frame_list.p = HANDLE(0xc1300090),                                 \
}
#define FX64_gnttab_get_status_frames FX32_gnttab_get_status_frames

/* ---- physdev.h ---- */

#define FX32_physdev_set_iobitmap {                                     \
    .bitmap.p = HANDLE(0xc14000a0), .nr_ports = 0x01010000 }
#define FX64_physdev_set_iobitmap FX32_physdev_set_iobitmap

#define FX32_physdev_apic {                                             \
    .apic_physbase = 0xfec00000, .reg = 0x01020310, .value = 0x12345678 }
#define FX64_physdev_apic FX32_physdev_apic

#define FX32_physdev_map_pirq {                                         \
    .domid = 0x7ff0, .type = 0x01020302, .index = 0x04050611,           \
    .pirq = -1, .bus = 0x00010003, .devfn = 0x07080918,                 \
    .entry_nr = 0x0a0b0c04, .table_base = 0x0102fee012345678ULL,        \
}
#define FX64_physdev_map_pirq FX32_physdev_map_pirq

#define FX32_physdev_pirq_eoi_gmfn { .gmfn = 0x810bcdef }
#define FX64_physdev_pirq_eoi_gmfn FX32_physdev_pirq_eoi_gmfn

/*
 * X(type, name): each fixture compat-fixtures32.c compiles as fx32_name
 * (and fx32_name_size, its -m32 sizeof) from FX32_name.
 */
#define COMPAT_FIXTURES(X)                                              \
    X(struct start_info, start_info)                                    \
    X(struct start_info, start_info_dom0)                               \
    X(struct cpu_user_regs, cpu_user_regs)                              \
    X(struct cpu_user_regs, cpu_user_regs_junk)                         \
    X(struct trap_info, trap_info)                                      \
    X(struct vcpu_guest_context, vcpu_guest_context)                    \
    X(struct mmuext_op, mmuext_op)                                      \
    X(struct mmuext_op, mmuext_op_copy)                                 \
    X(struct multicall_entry, multicall_entry)                          \
    X(struct multicall_entry, multicall_entry_err)                      \
    X(struct shared_info, shared_info)                                  \
    X(struct vcpu_runstate_info, vcpu_runstate_info)                    \
    X(struct vcpu_register_runstate_memory_area,                        \
      vcpu_register_runstate_memory_area)                               \
    X(struct vcpu_register_runstate_memory_area,                        \
      vcpu_register_runstate_memory_area_hi)                            \
    X(struct vcpu_register_runstate_memory_area,                        \
      vcpu_register_runstate_memory_area_top)                           \
    X(struct vcpu_register_time_memory_area,                            \
      vcpu_register_time_memory_area)                                   \
    X(struct vcpu_register_time_memory_area,                            \
      vcpu_register_time_memory_area_hi)                                \
    X(struct vcpu_set_singleshot_timer, vcpu_set_singleshot_timer)      \
    X(struct callback_register, callback_register)                      \
    X(struct sched_poll, sched_poll)                                    \
    X(struct sched_poll, sched_poll_top)                                \
    X(struct xen_platform_parameters, xen_platform_parameters)          \
    X(struct xen_memory_reservation, xen_memory_reservation)            \
    X(struct xen_memory_reservation, xen_memory_reservation_top)        \
    X(struct xen_memory_exchange, xen_memory_exchange)                  \
    X(struct xen_add_to_physmap, xen_add_to_physmap)                    \
    X(struct xen_add_to_physmap_batch, xen_add_to_physmap_batch)        \
    X(struct xen_remove_from_physmap, xen_remove_from_physmap)          \
    X(struct xen_memory_map, xen_memory_map)                            \
    X(struct xen_pod_target, xen_pod_target)                            \
    X(struct xen_machphys_mfn_list, xen_machphys_mfn_list)              \
    X(struct xen_machphys_mapping, xen_machphys_mapping)                \
    X(struct gnttab_setup_table, gnttab_setup_table)                    \
    X(struct gnttab_transfer, gnttab_transfer)                          \
    X(struct gnttab_copy, gnttab_copy)                                  \
    X(struct gnttab_get_status_frames, gnttab_get_status_frames)        \
    X(struct physdev_set_iobitmap, physdev_set_iobitmap)                \
    X(struct physdev_apic, physdev_apic)                                \
    X(struct physdev_map_pirq, physdev_map_pirq)                        \
    X(struct physdev_pirq_eoi_gmfn, physdev_pirq_eoi_gmfn)

#include "tests/unit/compat-fixtures-same.h"

#endif /* TESTS_UNIT_COMPAT_FIXTURES_H */
