/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The performance counters (shim/perfc.h), included once per use.  Names
 * and descriptions follow Xen's (xen/include/xen/perfc_defn.h and the
 * x86 one) where Xen counts the same thing; the rest are the shim's own:
 * the crossings a PV guest pays for (mode switches, bounces, upcalls) and
 * the work of its backends.
 */
PERFCOUNTER_ARRAY(hypercalls,           "hypercalls", PERFC_NR_HYPERCALLS)
PERFCOUNTER_ARRAY(exceptions,           "exceptions", 32)
PERFCOUNTER_ARRAY(evtchn_ops,           "event_channel_op by command", 16)
PERFCOUNTER_ARRAY(sched_ops,            "sched_op by command", 16)
PERFCOUNTER_ARRAY(gnttab_ops,           "grant_table_op by command", 16)
PERFCOUNTER_ARRAY(softirqs,             "softirqs run", PERFC_NR_SOFTIRQS)

PERFCOUNTER(calls_to_multicall,         "calls to multicall")
PERFCOUNTER(calls_from_multicall,       "calls from multicall")

PERFCOUNTER(irqs,                       "#interrupts")
PERFCOUNTER(ipis,                       "#IPIs")
PERFCOUNTER(apic_timer,                 "apic timer interrupts")
PERFCOUNTER(apic_timer_arms,            "apic timer writes")

PERFCOUNTER(page_faults,                "page faults")
PERFCOUNTER(copy_user_faults,           "copy_user faults")
PERFCOUNTER(ptwr_emulations,            "writable pt emulations")
PERFCOUNTER(ptwr_retries,               "ptwr writes again: A/D set meanwhile")
PERFCOUNTER(ldt_faults,                 "LDT page faults mapped")
PERFCOUNTER(emulated_priv_ops,          "privileged ops emulated")
PERFCOUNTER(stale_int3s,                "int3s gone from memory rewritten")

PERFCOUNTER(calls_to_mmuext_op,         "calls to mmuext_op")
PERFCOUNTER(num_mmuext_ops,             "mmuext ops")
PERFCOUNTER(calls_to_mmu_update,        "calls to mmu_update")
PERFCOUNTER(num_page_updates,           "page updates")
PERFCOUNTER(calls_to_update_va,         "calls to update_va_map")

PERFCOUNTER(guest_syscalls,             "guest syscalls bounced to kernel")
PERFCOUNTER(guest_mode_switches,        "guest kernel/user switches")
PERFCOUNTER(exceptions_bounced,         "exceptions bounced to the guest")
PERFCOUNTER(event_upcalls,              "event upcalls")
PERFCOUNTER(evtchn_guest_notify,        "events sent to the guest")
PERFCOUNTER(backend_batched,            "backend events held (batch)")
PERFCOUNTER(backend_batch_released,     "backend batches at iret/sched")
PERFCOUNTER(backend_batch_timeouts,     "backend batch timeouts")
PERFCOUNTER(xenstore_relooks,           "xenstore ring looked at unasked")

PERFCOUNTER(device_notifications,       "virtio kicks and NVMe doorbells")
PERFCOUNTER(cr3_loads,                  "CR3 loads (page-table switches)")
PERFCOUNTER(tlb_flush_local,            "local TLB flushes")
PERFCOUNTER(tlb_flush_local_global,     "local TLB flushes incl. global")
PERFCOUNTER(tlb_flush_local_va,         "local single-page flushes")
PERFCOUNTER(tlb_flush_mask,             "TLB flushes of other CPUs")
PERFCOUNTER(tlb_flush_type_change,      "type-change flushes")
PERFCOUNTER(tlb_flush_type_change_filtered, "type-change flushes filtered")
PERFCOUNTER(tlb_flush_owed,             "flushes owed by halted CPUs")
PERFCOUNTER(tlb_flush_owed_done,        "owed flushes done at wake")
PERFCOUNTER(vcpu_blocks,                "vcpu blocks")
PERFCOUNTER(vcpu_wakes,                 "vcpu wakes")
