/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixtures for the structures pv/compat/same.h passes untranslated: one
 * initializer each (FXS_x), compiled -m32 (fx32_x) and natively (in
 * test-compat-layout.c), which must give the same bytes and size.
 * Included by compat-fixtures.h.
 */
#ifndef TESTS_UNIT_COMPAT_FIXTURES_SAME_H
#define TESTS_UNIT_COMPAT_FIXTURES_SAME_H

#define FXS_mmu_update {                                                \
    .ptr = 0x0102030405060708ULL, .val = 0x1112131415161718ULL }
#define FXS_vcpu_time_info {                                            \
    .version = 0x01020304, .pad0 = 0x05060708,                          \
    .tsc_timestamp = 0x1112131415161718ULL,                             \
    .system_time = 0x2122232425262728ULL,                               \
    .tsc_to_system_mul = 0x31323334, .tsc_shift = -5, .flags = 0x36,    \
    .pad1 = { 0x37, 0x38 },                                             \
}
#define FXS_evtchn_alloc_unbound {                                      \
    .dom = 0x7ff0, .remote_dom = 0x0102, .port = 0x03040506 }
#define FXS_evtchn_bind_interdomain {                                   \
    .remote_dom = 0x0102, .remote_port = 0x03040506, .local_port = 0x0708090a }
#define FXS_evtchn_bind_virq {                                          \
    .virq = 0x01020304, .vcpu = 0x05060708, .port = 0x090a0b0c }
#define FXS_evtchn_bind_pirq {                                          \
    .pirq = 0x01020304, .flags = 0x05060708, .port = 0x090a0b0c }
#define FXS_evtchn_bind_ipi { .vcpu = 0x01020304, .port = 0x05060708 }
#define FXS_evtchn_close { .port = 0x01020304 }
#define FXS_evtchn_send { .port = 0x01020305 }
#define FXS_evtchn_status {                                             \
    .dom = 0x7ff0, .port = 0x01020304, .status = 0x05060708,            \
    .vcpu = 0x090a0b0c,                                                 \
    .u.interdomain = { .dom = 0x0d0e, .port = 0x0f101112 },             \
}
#define FXS_evtchn_bind_vcpu { .port = 0x01020304, .vcpu = 0x05060708 }
#define FXS_evtchn_unmask { .port = 0x01020306 }
#define FXS_evtchn_reset { .dom = 0x7ff0 }
#define FXS_evtchn_init_control {                                       \
    .control_gfn = 0x0102030405060708ULL, .offset = 0x090a0b0c,         \
    .vcpu = 0x0d0e0f10, .link_bits = 0x11,                              \
    ._pad = { 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 },               \
}
#define FXS_evtchn_expand_array { .array_gfn = 0x0102030405060708ULL }
#define FXS_evtchn_set_priority { .port = 0x01020304, .priority = 0x05060708 }
#define FXS_evtchn_op {                                                 \
    .cmd = 0x01020304,                                                  \
    .u.bind_virq = { .virq = 0x05060708, .vcpu = 0x090a0b0c,            \
                     .port = 0x0d0e0f10 },                              \
}
#define FXS_grant_entry_v1 {                                            \
    .flags = 0x0102, .domid = 0x0304, .frame = 0x05060708 }
#define FXS_grant_entry_header { .flags = 0x0102, .domid = 0x0304 }
#define FXS_gnttab_map_grant_ref {                                      \
    .host_addr = 0x0102030405060708ULL, .flags = 0x090a0b0c,            \
    .ref = 0x0d0e0f10, .dom = 0x1112, .status = -2,                     \
    .handle = 0x13141516, .dev_bus_addr = 0x1718191a1b1c1d1eULL,        \
}
#define FXS_gnttab_unmap_grant_ref {                                    \
    .host_addr = 0x0102030405060708ULL,                                 \
    .dev_bus_addr = 0x1112131415161718ULL, .handle = 0x191a1b1c,        \
    .status = -4,                                                       \
}
#define FXS_gnttab_unmap_and_replace {                                  \
    .host_addr = 0x0102030405060708ULL,                                 \
    .new_addr = 0x1112131415161718ULL, .handle = 0x191a1b1c,            \
    .status = -6,                                                       \
}
#define FXS_gnttab_dump_table { .dom = 0x7ff0, .status = -8 }
#define FXS_gnttab_query_size {                                         \
    .dom = 0x7ff0, .nr_frames = 0x01020304, .max_nr_frames = 0x05060708, \
    .status = -9,                                                       \
}
#define FXS_gnttab_set_version { .version = 0x01020302 }
#define FXS_gnttab_get_version {                                        \
    .dom = 0x7ff0, .pad = 0x0102, .version = 0x03040502 }
#define FXS_gnttab_swap_grant_ref {                                     \
    .ref_a = 0x01020304, .ref_b = 0x05060708, .status = -10 }
#define FXS_gnttab_cache_flush {                                        \
    .a.dev_bus_addr = 0x0102030405060708ULL, .offset = 0x090a,          \
    .length = 0x0b0c, .op = 0x0d0e0f10,                                 \
}
#define FXS_vcpu_set_periodic_timer { .period_ns = 0x0102030405060708ULL }
#define FXS_vcpu_register_vcpu_info {                                   \
    .mfn = 0x0102030405060708ULL, .offset = 0x090a0b0c, .rsvd = 0x0d0e0f10 }
#define FXS_vcpu_get_physid { .phys_id = 0x0102030405060708ULL }
#define FXS_callback_unregister { .type = 0x0102, ._unused = 0x0304 }
#define FXS_sched_shutdown { .reason = 0x01020304 }
#define FXS_sched_remote_shutdown { .domain_id = 0x0102, .reason = 0x03040506 }
#define FXS_sched_pin_override { .pcpu = -2 }
#define FXS_physdev_eoi { .irq = 0x01020304 }
#define FXS_physdev_get_free_pirq { .type = 0x01020304, .pirq = 0x05060708 }
#define FXS_physdev_irq { .irq = 0x01020304, .vector = 0x05060708 }
#define FXS_physdev_irq_status_query { .irq = 0x01020304, .flags = 0x05060708 }
#define FXS_physdev_set_iopl { .iopl = 0x01020303 }
#define FXS_physdev_unmap_pirq { .domid = 0x0102, .pirq = 0x03040506 }
#define FXS_physdev_manage_pci { .bus = 0x01, .devfn = 0x02 }
#define FXS_physdev_manage_pci_ext {                                    \
    .bus = 0x01, .devfn = 0x02, .is_extfn = 0x03040506,                 \
    .is_virtfn = 0x0708090a, .physfn = { .bus = 0x0b, .devfn = 0x0c },  \
}
#define FXS_physdev_setup_gsi {                                         \
    .gsi = 0x01020304, .triggering = 0x05, .polarity = 0x06 }
#define FXS_physdev_pci_device { .seg = 0x0102, .bus = 0x03, .devfn = 0x04 }
#define FXS_physdev_pci_device_add {                                    \
    .seg = 0x0102, .bus = 0x03, .devfn = 0x04, .flags = 0x05060708,     \
    .physfn = { .bus = 0x09, .devfn = 0x0a },                           \
}
#define FXS_physdev_restore_msi { .bus = 0x01, .devfn = 0x02 }
#define FXS_physdev_pci_mmcfg_reserved {                                \
    .address = 0x0102030405060708ULL, .segment = 0x090a,                \
    .start_bus = 0x0b, .end_bus = 0x0c, .flags = 0x0d0e0f10,            \
}
#define FXS_physdev_dbgp_op {                                           \
    .op = 0x01, .bus = 0x02,                                            \
    .u.pci = { .seg = 0x0304, .bus = 0x05, .devfn = 0x06 },             \
}
#define FXS_xen_feature_info { .submap_idx = 0x01020304, .submap = 0x05060708 }
#define FXS_xen_compile_info {                                          \
    .compiler = "gcc (Debian 12.2.0-14) 12.2.0", .compile_by = "pvshim", \
    .compile_domain = "example.org", .compile_date = "Mon Dec 1 2025",  \
}
#define FXS_xen_build_id { .len = 0x01020304 }

/* X(type, name): each is fx32_name in compat-fixtures32.c. */
#define COMPAT_SAME_FIXTURES(X)                                         \
    X(struct mmu_update, mmu_update)                                    \
    X(struct vcpu_time_info, vcpu_time_info)                            \
    X(struct evtchn_alloc_unbound, evtchn_alloc_unbound)                \
    X(struct evtchn_bind_interdomain, evtchn_bind_interdomain)          \
    X(struct evtchn_bind_virq, evtchn_bind_virq)                        \
    X(struct evtchn_bind_pirq, evtchn_bind_pirq)                        \
    X(struct evtchn_bind_ipi, evtchn_bind_ipi)                          \
    X(struct evtchn_close, evtchn_close)                                \
    X(struct evtchn_send, evtchn_send)                                  \
    X(struct evtchn_status, evtchn_status)                              \
    X(struct evtchn_bind_vcpu, evtchn_bind_vcpu)                        \
    X(struct evtchn_unmask, evtchn_unmask)                              \
    X(struct evtchn_reset, evtchn_reset)                                \
    X(struct evtchn_init_control, evtchn_init_control)                  \
    X(struct evtchn_expand_array, evtchn_expand_array)                  \
    X(struct evtchn_set_priority, evtchn_set_priority)                  \
    X(struct evtchn_op, evtchn_op)                                      \
    X(struct grant_entry_v1, grant_entry_v1)                            \
    X(struct grant_entry_header, grant_entry_header)                    \
    X(struct gnttab_map_grant_ref, gnttab_map_grant_ref)                \
    X(struct gnttab_unmap_grant_ref, gnttab_unmap_grant_ref)            \
    X(struct gnttab_unmap_and_replace, gnttab_unmap_and_replace)        \
    X(struct gnttab_dump_table, gnttab_dump_table)                      \
    X(struct gnttab_query_size, gnttab_query_size)                      \
    X(struct gnttab_set_version, gnttab_set_version)                    \
    X(struct gnttab_get_version, gnttab_get_version)                    \
    X(struct gnttab_swap_grant_ref, gnttab_swap_grant_ref)              \
    X(struct gnttab_cache_flush, gnttab_cache_flush)                    \
    X(struct vcpu_set_periodic_timer, vcpu_set_periodic_timer)          \
    X(struct vcpu_register_vcpu_info, vcpu_register_vcpu_info)          \
    X(struct vcpu_get_physid, vcpu_get_physid)                          \
    X(struct callback_unregister, callback_unregister)                  \
    X(struct sched_shutdown, sched_shutdown)                            \
    X(struct sched_remote_shutdown, sched_remote_shutdown)              \
    X(struct sched_pin_override, sched_pin_override)                    \
    X(struct physdev_eoi, physdev_eoi)                                  \
    X(struct physdev_get_free_pirq, physdev_get_free_pirq)              \
    X(struct physdev_irq, physdev_irq)                                  \
    X(struct physdev_irq_status_query, physdev_irq_status_query)        \
    X(struct physdev_set_iopl, physdev_set_iopl)                        \
    X(struct physdev_unmap_pirq, physdev_unmap_pirq)                    \
    X(struct physdev_manage_pci, physdev_manage_pci)                    \
    X(struct physdev_manage_pci_ext, physdev_manage_pci_ext)            \
    X(struct physdev_setup_gsi, physdev_setup_gsi)                      \
    X(struct physdev_pci_device, physdev_pci_device)                    \
    X(struct physdev_pci_device_add, physdev_pci_device_add)            \
    X(struct physdev_restore_msi, physdev_restore_msi)                  \
    X(struct physdev_pci_mmcfg_reserved, physdev_pci_mmcfg_reserved)    \
    X(struct physdev_dbgp_op, physdev_dbgp_op)                          \
    X(struct xen_feature_info, xen_feature_info)                        \
    X(struct xen_compile_info, xen_compile_info)                        \
    X(struct xen_build_id, xen_build_id)

#endif /* TESTS_UNIT_COMPAT_FIXTURES_SAME_H */
