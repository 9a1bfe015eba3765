/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The structures a compat guest passes in the native layout: those of
 * Xen's xen/include/xlat.lst marked "?" (checked) that the shim serves.
 * An X-macro list, no include guard: pv/compat/layout-gen.c (-m32) emits
 * each one's 32-bit layout, pv/compat/check-same.c fails the build if it
 * differs from the 64-bit one.  Every member is named, so a header that
 * moves one can't slip by; a member with a "." is named with "__".
 * SAME_FLEX is a flexible array member: an offset, no size.
 */

/* xen.h */
SAME_STRUCT(mmu_update);
SAME_FIELD(mmu_update, ptr, ptr);
SAME_FIELD(mmu_update, val, val);

SAME_STRUCT(vcpu_time_info);
SAME_FIELD(vcpu_time_info, version, version);
SAME_FIELD(vcpu_time_info, pad0, pad0);
SAME_FIELD(vcpu_time_info, tsc_timestamp, tsc_timestamp);
SAME_FIELD(vcpu_time_info, system_time, system_time);
SAME_FIELD(vcpu_time_info, tsc_to_system_mul, tsc_to_system_mul);
SAME_FIELD(vcpu_time_info, tsc_shift, tsc_shift);
SAME_FIELD(vcpu_time_info, flags, flags);
SAME_FIELD(vcpu_time_info, pad1, pad1);

/* event_channel.h: every EVTCHNOP argument */
SAME_STRUCT(evtchn_alloc_unbound);
SAME_FIELD(evtchn_alloc_unbound, dom, dom);
SAME_FIELD(evtchn_alloc_unbound, remote_dom, remote_dom);
SAME_FIELD(evtchn_alloc_unbound, port, port);

SAME_STRUCT(evtchn_bind_interdomain);
SAME_FIELD(evtchn_bind_interdomain, remote_dom, remote_dom);
SAME_FIELD(evtchn_bind_interdomain, remote_port, remote_port);
SAME_FIELD(evtchn_bind_interdomain, local_port, local_port);

SAME_STRUCT(evtchn_bind_virq);
SAME_FIELD(evtchn_bind_virq, virq, virq);
SAME_FIELD(evtchn_bind_virq, vcpu, vcpu);
SAME_FIELD(evtchn_bind_virq, port, port);

SAME_STRUCT(evtchn_bind_pirq);
SAME_FIELD(evtchn_bind_pirq, pirq, pirq);
SAME_FIELD(evtchn_bind_pirq, flags, flags);
SAME_FIELD(evtchn_bind_pirq, port, port);

SAME_STRUCT(evtchn_bind_ipi);
SAME_FIELD(evtchn_bind_ipi, vcpu, vcpu);
SAME_FIELD(evtchn_bind_ipi, port, port);

SAME_STRUCT(evtchn_close);
SAME_FIELD(evtchn_close, port, port);

SAME_STRUCT(evtchn_send);
SAME_FIELD(evtchn_send, port, port);

SAME_STRUCT(evtchn_status);
SAME_FIELD(evtchn_status, dom, dom);
SAME_FIELD(evtchn_status, port, port);
SAME_FIELD(evtchn_status, status, status);
SAME_FIELD(evtchn_status, vcpu, vcpu);
SAME_FIELD(evtchn_status, u__unbound__dom, u.unbound.dom);
SAME_FIELD(evtchn_status, u__interdomain__dom, u.interdomain.dom);
SAME_FIELD(evtchn_status, u__interdomain__port, u.interdomain.port);
SAME_FIELD(evtchn_status, u__pirq, u.pirq);
SAME_FIELD(evtchn_status, u__virq, u.virq);

SAME_STRUCT(evtchn_bind_vcpu);
SAME_FIELD(evtchn_bind_vcpu, port, port);
SAME_FIELD(evtchn_bind_vcpu, vcpu, vcpu);

SAME_STRUCT(evtchn_unmask);
SAME_FIELD(evtchn_unmask, port, port);

SAME_STRUCT(evtchn_reset);
SAME_FIELD(evtchn_reset, dom, dom);

SAME_STRUCT(evtchn_init_control);
SAME_FIELD(evtchn_init_control, control_gfn, control_gfn);
SAME_FIELD(evtchn_init_control, offset, offset);
SAME_FIELD(evtchn_init_control, vcpu, vcpu);
SAME_FIELD(evtchn_init_control, link_bits, link_bits);
SAME_FIELD(evtchn_init_control, _pad, _pad);

SAME_STRUCT(evtchn_expand_array);
SAME_FIELD(evtchn_expand_array, array_gfn, array_gfn);

SAME_STRUCT(evtchn_set_priority);
SAME_FIELD(evtchn_set_priority, port, port);
SAME_FIELD(evtchn_set_priority, priority, priority);

/* The old event_channel_op_compat argument: cmd, then the union. */
SAME_STRUCT(evtchn_op);
SAME_FIELD(evtchn_op, cmd, cmd);
SAME_FIELD(evtchn_op, u, u);

/* grant_table.h */
SAME_STRUCT(grant_entry_v1);
SAME_FIELD(grant_entry_v1, flags, flags);
SAME_FIELD(grant_entry_v1, domid, domid);
SAME_FIELD(grant_entry_v1, frame, frame);

SAME_STRUCT(grant_entry_header);
SAME_FIELD(grant_entry_header, flags, flags);
SAME_FIELD(grant_entry_header, domid, domid);

SAME_STRUCT(gnttab_map_grant_ref);
SAME_FIELD(gnttab_map_grant_ref, host_addr, host_addr);
SAME_FIELD(gnttab_map_grant_ref, flags, flags);
SAME_FIELD(gnttab_map_grant_ref, ref, ref);
SAME_FIELD(gnttab_map_grant_ref, dom, dom);
SAME_FIELD(gnttab_map_grant_ref, status, status);
SAME_FIELD(gnttab_map_grant_ref, handle, handle);
SAME_FIELD(gnttab_map_grant_ref, dev_bus_addr, dev_bus_addr);

SAME_STRUCT(gnttab_unmap_grant_ref);
SAME_FIELD(gnttab_unmap_grant_ref, host_addr, host_addr);
SAME_FIELD(gnttab_unmap_grant_ref, dev_bus_addr, dev_bus_addr);
SAME_FIELD(gnttab_unmap_grant_ref, handle, handle);
SAME_FIELD(gnttab_unmap_grant_ref, status, status);

SAME_STRUCT(gnttab_unmap_and_replace);
SAME_FIELD(gnttab_unmap_and_replace, host_addr, host_addr);
SAME_FIELD(gnttab_unmap_and_replace, new_addr, new_addr);
SAME_FIELD(gnttab_unmap_and_replace, handle, handle);
SAME_FIELD(gnttab_unmap_and_replace, status, status);

SAME_STRUCT(gnttab_dump_table);
SAME_FIELD(gnttab_dump_table, dom, dom);
SAME_FIELD(gnttab_dump_table, status, status);

SAME_STRUCT(gnttab_query_size);
SAME_FIELD(gnttab_query_size, dom, dom);
SAME_FIELD(gnttab_query_size, nr_frames, nr_frames);
SAME_FIELD(gnttab_query_size, max_nr_frames, max_nr_frames);
SAME_FIELD(gnttab_query_size, status, status);

SAME_STRUCT(gnttab_set_version);
SAME_FIELD(gnttab_set_version, version, version);

SAME_STRUCT(gnttab_get_version);
SAME_FIELD(gnttab_get_version, dom, dom);
SAME_FIELD(gnttab_get_version, pad, pad);
SAME_FIELD(gnttab_get_version, version, version);

SAME_STRUCT(gnttab_swap_grant_ref);
SAME_FIELD(gnttab_swap_grant_ref, ref_a, ref_a);
SAME_FIELD(gnttab_swap_grant_ref, ref_b, ref_b);
SAME_FIELD(gnttab_swap_grant_ref, status, status);

SAME_STRUCT(gnttab_cache_flush);
SAME_FIELD(gnttab_cache_flush, a__dev_bus_addr, a.dev_bus_addr);
SAME_FIELD(gnttab_cache_flush, a__ref, a.ref);
SAME_FIELD(gnttab_cache_flush, offset, offset);
SAME_FIELD(gnttab_cache_flush, length, length);
SAME_FIELD(gnttab_cache_flush, op, op);

/* vcpu.h */
SAME_STRUCT(vcpu_set_periodic_timer);
SAME_FIELD(vcpu_set_periodic_timer, period_ns, period_ns);

SAME_STRUCT(vcpu_register_vcpu_info);
SAME_FIELD(vcpu_register_vcpu_info, mfn, mfn);
SAME_FIELD(vcpu_register_vcpu_info, offset, offset);
SAME_FIELD(vcpu_register_vcpu_info, rsvd, rsvd);

SAME_STRUCT(vcpu_get_physid);
SAME_FIELD(vcpu_get_physid, phys_id, phys_id);

/* callback.h */
SAME_STRUCT(callback_unregister);
SAME_FIELD(callback_unregister, type, type);
SAME_FIELD(callback_unregister, _unused, _unused);

/* sched.h */
SAME_STRUCT(sched_shutdown);
SAME_FIELD(sched_shutdown, reason, reason);

SAME_STRUCT(sched_remote_shutdown);
SAME_FIELD(sched_remote_shutdown, domain_id, domain_id);
SAME_FIELD(sched_remote_shutdown, reason, reason);

SAME_STRUCT(sched_pin_override);
SAME_FIELD(sched_pin_override, pcpu, pcpu);

/* physdev.h */
SAME_STRUCT(physdev_eoi);
SAME_FIELD(physdev_eoi, irq, irq);

SAME_STRUCT(physdev_get_free_pirq);
SAME_FIELD(physdev_get_free_pirq, type, type);
SAME_FIELD(physdev_get_free_pirq, pirq, pirq);

SAME_STRUCT(physdev_irq);
SAME_FIELD(physdev_irq, irq, irq);
SAME_FIELD(physdev_irq, vector, vector);

SAME_STRUCT(physdev_irq_status_query);
SAME_FIELD(physdev_irq_status_query, irq, irq);
SAME_FIELD(physdev_irq_status_query, flags, flags);

SAME_STRUCT(physdev_set_iopl);
SAME_FIELD(physdev_set_iopl, iopl, iopl);

SAME_STRUCT(physdev_unmap_pirq);
SAME_FIELD(physdev_unmap_pirq, domid, domid);
SAME_FIELD(physdev_unmap_pirq, pirq, pirq);

SAME_STRUCT(physdev_manage_pci);
SAME_FIELD(physdev_manage_pci, bus, bus);
SAME_FIELD(physdev_manage_pci, devfn, devfn);

SAME_STRUCT(physdev_manage_pci_ext);
SAME_FIELD(physdev_manage_pci_ext, bus, bus);
SAME_FIELD(physdev_manage_pci_ext, devfn, devfn);
SAME_FIELD(physdev_manage_pci_ext, is_extfn, is_extfn);
SAME_FIELD(physdev_manage_pci_ext, is_virtfn, is_virtfn);
SAME_FIELD(physdev_manage_pci_ext, physfn__bus, physfn.bus);
SAME_FIELD(physdev_manage_pci_ext, physfn__devfn, physfn.devfn);

SAME_STRUCT(physdev_setup_gsi);
SAME_FIELD(physdev_setup_gsi, gsi, gsi);
SAME_FIELD(physdev_setup_gsi, triggering, triggering);
SAME_FIELD(physdev_setup_gsi, polarity, polarity);

SAME_STRUCT(physdev_pci_device);
SAME_FIELD(physdev_pci_device, seg, seg);
SAME_FIELD(physdev_pci_device, bus, bus);
SAME_FIELD(physdev_pci_device, devfn, devfn);

SAME_STRUCT(physdev_pci_device_add);
SAME_FIELD(physdev_pci_device_add, seg, seg);
SAME_FIELD(physdev_pci_device_add, bus, bus);
SAME_FIELD(physdev_pci_device_add, devfn, devfn);
SAME_FIELD(physdev_pci_device_add, flags, flags);
SAME_FIELD(physdev_pci_device_add, physfn__bus, physfn.bus);
SAME_FIELD(physdev_pci_device_add, physfn__devfn, physfn.devfn);
SAME_FLEX(physdev_pci_device_add, optarr, optarr);

SAME_STRUCT(physdev_restore_msi);
SAME_FIELD(physdev_restore_msi, bus, bus);
SAME_FIELD(physdev_restore_msi, devfn, devfn);

SAME_STRUCT(physdev_pci_mmcfg_reserved);
SAME_FIELD(physdev_pci_mmcfg_reserved, address, address);
SAME_FIELD(physdev_pci_mmcfg_reserved, segment, segment);
SAME_FIELD(physdev_pci_mmcfg_reserved, start_bus, start_bus);
SAME_FIELD(physdev_pci_mmcfg_reserved, end_bus, end_bus);
SAME_FIELD(physdev_pci_mmcfg_reserved, flags, flags);

SAME_STRUCT(physdev_dbgp_op);
SAME_FIELD(physdev_dbgp_op, op, op);
SAME_FIELD(physdev_dbgp_op, bus, bus);
SAME_FIELD(physdev_dbgp_op, u__pci, u.pci);

/* version.h */
SAME_STRUCT(xen_feature_info);
SAME_FIELD(xen_feature_info, submap_idx, submap_idx);
SAME_FIELD(xen_feature_info, submap, submap);

SAME_STRUCT(xen_compile_info);
SAME_FIELD(xen_compile_info, compiler, compiler);
SAME_FIELD(xen_compile_info, compile_by, compile_by);
SAME_FIELD(xen_compile_info, compile_domain, compile_domain);
SAME_FIELD(xen_compile_info, compile_date, compile_date);

SAME_STRUCT(xen_build_id);
SAME_FIELD(xen_build_id, len, len);
SAME_FLEX(xen_build_id, buf, buf);
