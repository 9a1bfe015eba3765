/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 32-bit (compat) layout of the Xen structures pv/compat/ reads and
 * writes, taken from Debian's headers compiled with gcc -m32 -S (never
 * linked, never part of the shim): the Makefile turns the "->" lines of
 * the assembly into build/include/compat-layout.h, as asm-offsets.h.
 *
 * Names: COMPAT_<struct>_SIZEOF; for a member, COMPAT_<struct>__<m>_OFF
 * and _SIZE, with "__" for each "." of a nested member; for an array (or
 * a member of an array's elements), _OFF and _SIZE are those of element
 * 0, with _STRIDE and _NR.  pv/compat/layout.h has the accessors.
 */
#include <stddef.h>
#include <stdint.h>
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/grant_table.h>
#include <xen/memory.h>
#include <xen/nmi.h>
#include <xen/physdev.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/version.h>

#ifndef __i386__
#error "compile with -m32: this file describes the 32-bit layout"
#endif

#define DEFINE(sym, val) \
    asm volatile ( "\n.ascii \"->" #sym " %0\"" :: "i" (val) )

#define TYPE(name, type)    DEFINE(COMPAT_##name##_SIZEOF, sizeof(type))
#define STRUCT(s)           TYPE(s, struct s)
#define MSIZE(s, m)         sizeof(((struct s *)0)->m)
#define MEMBER(s, name, m) do {                                         \
    DEFINE(COMPAT_##s##__##name##_OFF, offsetof(struct s, m));          \
    DEFINE(COMPAT_##s##__##name##_SIZE, MSIZE(s, m));                   \
} while ( 0 )
#define FIELD(s, m)         MEMBER(s, m, m)
/* ARRAY(s, name, a, sub): a[i]sub, e.g. ARRAY(x, y__z, y, .z) for y[i].z */
#define ARRAY(s, name, a, sub) do {                                     \
    MEMBER(s, name, a[0]sub);                                           \
    DEFINE(COMPAT_##s##__##name##_STRIDE, MSIZE(s, a[0]));              \
    DEFINE(COMPAT_##s##__##name##_NR, MSIZE(s, a) / MSIZE(s, a[0]));    \
} while ( 0 )

/* Structures that are the same in both layouts: checked, not translated. */
#define SAME_STRUCT(s)          STRUCT(s)
#define SAME_FIELD(s, name, m)  MEMBER(s, name, m)
#define SAME_FLEX(s, name, m) \
    DEFINE(COMPAT_##s##__##name##_OFF, offsetof(struct s, m))

void compat_layout(void);
void compat_layout(void)
{
#include "pv/compat/same.h"

    /*
     * xen-x86_32.h's constants, which the 64-bit build can't include.
     * "i" prints them signed: layout.h gives them back as uint32_t.
     */
    DEFINE(COMPAT_HYPERVISOR_VIRT_START_S32, __HYPERVISOR_VIRT_START_PAE);
    DEFINE(COMPAT_MACH2PHYS_VIRT_START_S32, __MACH2PHYS_VIRT_START_PAE);
    DEFINE(COMPAT_MACH2PHYS_VIRT_END_S32, __MACH2PHYS_VIRT_END_PAE);
    DEFINE(COMPAT_FLAT_KERNEL_CS, FLAT_KERNEL_CS);
    DEFINE(COMPAT_FLAT_KERNEL_DS, FLAT_KERNEL_DS);
    DEFINE(COMPAT_FLAT_KERNEL_SS, FLAT_KERNEL_SS);
    DEFINE(COMPAT_FLAT_USER_CS, FLAT_USER_CS);
    DEFINE(COMPAT_FLAT_USER_DS, FLAT_USER_DS);
    DEFINE(COMPAT_FLAT_USER_SS, FLAT_USER_SS);

    /* Scalar types whose width differs: elements of guest arrays. */
    TYPE(xen_pfn_t, xen_pfn_t);
    TYPE(xen_ulong_t, xen_ulong_t);
    TYPE(ulong, unsigned long);

    /* xen.h */
    STRUCT(start_info);
    FIELD(start_info, magic);
    FIELD(start_info, nr_pages);
    FIELD(start_info, shared_info);
    FIELD(start_info, flags);
    FIELD(start_info, store_mfn);
    FIELD(start_info, store_evtchn);
    MEMBER(start_info, console__domU__mfn, console.domU.mfn);
    MEMBER(start_info, console__domU__evtchn, console.domU.evtchn);
    MEMBER(start_info, console__dom0__info_off, console.dom0.info_off);
    MEMBER(start_info, console__dom0__info_size, console.dom0.info_size);
    FIELD(start_info, pt_base);
    FIELD(start_info, nr_pt_frames);
    FIELD(start_info, mfn_list);
    FIELD(start_info, mod_start);
    FIELD(start_info, mod_len);
    FIELD(start_info, cmd_line);
    FIELD(start_info, first_p2m_pfn);
    FIELD(start_info, nr_p2m_frames);

    STRUCT(cpu_user_regs);
    FIELD(cpu_user_regs, ebx);
    FIELD(cpu_user_regs, ecx);
    FIELD(cpu_user_regs, edx);
    FIELD(cpu_user_regs, esi);
    FIELD(cpu_user_regs, edi);
    FIELD(cpu_user_regs, ebp);
    FIELD(cpu_user_regs, eax);
    FIELD(cpu_user_regs, error_code);
    FIELD(cpu_user_regs, entry_vector);
    FIELD(cpu_user_regs, eip);
    FIELD(cpu_user_regs, cs);
    FIELD(cpu_user_regs, saved_upcall_mask);
    FIELD(cpu_user_regs, eflags);
    FIELD(cpu_user_regs, esp);
    FIELD(cpu_user_regs, ss);
    FIELD(cpu_user_regs, es);
    FIELD(cpu_user_regs, ds);
    FIELD(cpu_user_regs, fs);
    FIELD(cpu_user_regs, gs);

    STRUCT(trap_info);
    FIELD(trap_info, vector);
    FIELD(trap_info, flags);
    FIELD(trap_info, cs);
    FIELD(trap_info, address);

    STRUCT(vcpu_guest_context);
    FIELD(vcpu_guest_context, fpu_ctxt);
    FIELD(vcpu_guest_context, flags);
    FIELD(vcpu_guest_context, user_regs);
    MEMBER(vcpu_guest_context, user_regs__eip, user_regs.eip);
    ARRAY(vcpu_guest_context, trap_ctxt, trap_ctxt, );
    ARRAY(vcpu_guest_context, trap_ctxt__address, trap_ctxt, .address);
    FIELD(vcpu_guest_context, ldt_base);
    FIELD(vcpu_guest_context, ldt_ents);
    ARRAY(vcpu_guest_context, gdt_frames, gdt_frames, );
    FIELD(vcpu_guest_context, gdt_ents);
    FIELD(vcpu_guest_context, kernel_ss);
    FIELD(vcpu_guest_context, kernel_sp);
    ARRAY(vcpu_guest_context, ctrlreg, ctrlreg, );
    ARRAY(vcpu_guest_context, debugreg, debugreg, );
    FIELD(vcpu_guest_context, event_callback_cs);
    FIELD(vcpu_guest_context, event_callback_eip);
    FIELD(vcpu_guest_context, failsafe_callback_cs);
    FIELD(vcpu_guest_context, failsafe_callback_eip);
    FIELD(vcpu_guest_context, vm_assist);

    STRUCT(mmuext_op);
    FIELD(mmuext_op, cmd);
    FIELD(mmuext_op, arg1);
    FIELD(mmuext_op, arg2);

    STRUCT(multicall_entry);
    FIELD(multicall_entry, op);
    FIELD(multicall_entry, result);
    ARRAY(multicall_entry, args, args, );

    /* The shared pages: laid out, not translated (the guest owns them). */
    STRUCT(shared_info);
    ARRAY(shared_info, vcpu_info, vcpu_info, );
    ARRAY(shared_info, evtchn_pending, evtchn_pending, );
    ARRAY(shared_info, evtchn_mask, evtchn_mask, );
    FIELD(shared_info, wc_version);
    FIELD(shared_info, wc_sec);
    FIELD(shared_info, wc_nsec);
    FIELD(shared_info, arch);
    MEMBER(shared_info, arch__max_pfn, arch.max_pfn);
    MEMBER(shared_info, arch__pfn_to_mfn_frame_list_list,
           arch.pfn_to_mfn_frame_list_list);
    MEMBER(shared_info, arch__nmi_reason, arch.nmi_reason);
    MEMBER(shared_info, arch__p2m_cr3, arch.p2m_cr3);
    MEMBER(shared_info, arch__p2m_vaddr, arch.p2m_vaddr);
    MEMBER(shared_info, arch__p2m_generation, arch.p2m_generation);
    MEMBER(shared_info, arch__wc_sec_hi, arch.wc_sec_hi);

    STRUCT(vcpu_info);
    FIELD(vcpu_info, evtchn_upcall_pending);
    FIELD(vcpu_info, evtchn_upcall_mask);
    FIELD(vcpu_info, evtchn_pending_sel);
    FIELD(vcpu_info, arch);
    MEMBER(vcpu_info, arch__cr2, arch.cr2);
    FIELD(vcpu_info, time);

    /* vcpu.h */
    STRUCT(vcpu_runstate_info);
    FIELD(vcpu_runstate_info, state);
    FIELD(vcpu_runstate_info, state_entry_time);
    ARRAY(vcpu_runstate_info, time, time, );

    STRUCT(vcpu_register_runstate_memory_area);
    MEMBER(vcpu_register_runstate_memory_area, addr__h, addr.h);
    MEMBER(vcpu_register_runstate_memory_area, addr__p, addr.p);

    STRUCT(vcpu_register_time_memory_area);
    MEMBER(vcpu_register_time_memory_area, addr__h, addr.h);
    MEMBER(vcpu_register_time_memory_area, addr__p, addr.p);

    STRUCT(vcpu_set_singleshot_timer);
    FIELD(vcpu_set_singleshot_timer, timeout_abs_ns);
    FIELD(vcpu_set_singleshot_timer, flags);

    /* callback.h */
    STRUCT(callback_register);
    FIELD(callback_register, type);
    FIELD(callback_register, flags);
    MEMBER(callback_register, address__cs, address.cs);
    MEMBER(callback_register, address__eip, address.eip);

    /* nmi.h */
    STRUCT(xennmi_callback);
    FIELD(xennmi_callback, handler_address);

    /* sched.h */
    STRUCT(sched_poll);
    FIELD(sched_poll, ports);
    FIELD(sched_poll, nr_ports);
    FIELD(sched_poll, timeout);

    /* memory.h */
    STRUCT(xen_memory_reservation);
    FIELD(xen_memory_reservation, extent_start);
    FIELD(xen_memory_reservation, nr_extents);
    FIELD(xen_memory_reservation, extent_order);
    FIELD(xen_memory_reservation, mem_flags);
    FIELD(xen_memory_reservation, domid);

    STRUCT(xen_memory_exchange);
    FIELD(xen_memory_exchange, in);
    FIELD(xen_memory_exchange, out);
    FIELD(xen_memory_exchange, nr_exchanged);

    STRUCT(xen_add_to_physmap);
    FIELD(xen_add_to_physmap, domid);
    FIELD(xen_add_to_physmap, size);
    FIELD(xen_add_to_physmap, space);
    FIELD(xen_add_to_physmap, idx);
    FIELD(xen_add_to_physmap, gpfn);

    STRUCT(xen_add_to_physmap_batch);
    FIELD(xen_add_to_physmap_batch, domid);
    FIELD(xen_add_to_physmap_batch, space);
    FIELD(xen_add_to_physmap_batch, size);
    MEMBER(xen_add_to_physmap_batch, u__foreign_domid, u.foreign_domid);
    FIELD(xen_add_to_physmap_batch, idxs);
    FIELD(xen_add_to_physmap_batch, gpfns);
    FIELD(xen_add_to_physmap_batch, errs);

    STRUCT(xen_remove_from_physmap);
    FIELD(xen_remove_from_physmap, domid);
    FIELD(xen_remove_from_physmap, gpfn);

    STRUCT(xen_memory_map);
    FIELD(xen_memory_map, nr_entries);
    FIELD(xen_memory_map, buffer);

    STRUCT(xen_pod_target);
    FIELD(xen_pod_target, target_pages);
    FIELD(xen_pod_target, tot_pages);
    FIELD(xen_pod_target, pod_cache_pages);
    FIELD(xen_pod_target, pod_entries);
    FIELD(xen_pod_target, domid);

    STRUCT(xen_machphys_mfn_list);
    FIELD(xen_machphys_mfn_list, max_extents);
    FIELD(xen_machphys_mfn_list, extent_start);
    FIELD(xen_machphys_mfn_list, nr_extents);

    STRUCT(xen_machphys_mapping);
    FIELD(xen_machphys_mapping, v_start);
    FIELD(xen_machphys_mapping, v_end);
    FIELD(xen_machphys_mapping, max_mfn);

    /* grant_table.h */
    STRUCT(gnttab_setup_table);
    FIELD(gnttab_setup_table, dom);
    FIELD(gnttab_setup_table, nr_frames);
    FIELD(gnttab_setup_table, status);
    FIELD(gnttab_setup_table, frame_list);

    STRUCT(gnttab_transfer);
    FIELD(gnttab_transfer, mfn);
    FIELD(gnttab_transfer, domid);
    FIELD(gnttab_transfer, ref);
    FIELD(gnttab_transfer, status);

    STRUCT(gnttab_copy_ptr);
    FIELD(gnttab_copy_ptr, u);
    FIELD(gnttab_copy_ptr, domid);
    FIELD(gnttab_copy_ptr, offset);

    STRUCT(gnttab_copy);
    FIELD(gnttab_copy, source);
    FIELD(gnttab_copy, dest);
    FIELD(gnttab_copy, len);
    FIELD(gnttab_copy, flags);
    FIELD(gnttab_copy, status);

    STRUCT(gnttab_get_status_frames);
    FIELD(gnttab_get_status_frames, nr_frames);
    FIELD(gnttab_get_status_frames, dom);
    FIELD(gnttab_get_status_frames, status);
    FIELD(gnttab_get_status_frames, frame_list);

    /* physdev.h */
    STRUCT(physdev_set_iobitmap);
    FIELD(physdev_set_iobitmap, bitmap);
    FIELD(physdev_set_iobitmap, nr_ports);

    STRUCT(physdev_apic);
    FIELD(physdev_apic, apic_physbase);
    FIELD(physdev_apic, reg);
    FIELD(physdev_apic, value);

    STRUCT(physdev_map_pirq);
    FIELD(physdev_map_pirq, domid);
    FIELD(physdev_map_pirq, type);
    FIELD(physdev_map_pirq, index);
    FIELD(physdev_map_pirq, pirq);
    FIELD(physdev_map_pirq, bus);
    FIELD(physdev_map_pirq, devfn);
    FIELD(physdev_map_pirq, entry_nr);
    FIELD(physdev_map_pirq, table_base);

    STRUCT(physdev_pirq_eoi_gmfn);
    FIELD(physdev_pirq_eoi_gmfn, gmfn);

    /* version.h */
    STRUCT(xen_platform_parameters);
    FIELD(xen_platform_parameters, virt_start);
}
