/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translation between a 32-bit PAE PV ("compat") guest's structures and
 * the 64-bit ones the shim works with, one function per structure and
 * direction, as Xen's XLAT_* (xen/include/xlat.lst).
 *
 * The layer.  The native side is the structure as Debian's Xen headers
 * declare it to the 64-bit shim.  The compat side is a byte buffer of
 * COMPAT_SIZEOF(s) bytes in the guest's layout, which the caller copies
 * in from or out to guest memory; its offsets come from the same headers
 * compiled -m32 (pv/compat/layout.h), so no Xen structure is retyped.
 *
 * - xlat_X_from_compat(n, c): guest to shim.  Zeroes *n first, then
 *   fills every member from c, each 32-bit value zero-extended.  It
 *   cannot fail: every compat value fits its native member.  Nothing is
 *   checked here; the caller checks the native result as it checks a
 *   64-bit guest's.
 * - xlat_X_to_compat(c, n): shim to guest.  Zeroes the buffer first, so
 *   no shim byte reaches the guest through padding.  Where a native
 *   value is wider than its compat member it returns -XEN_ERANGE if the
 *   value doesn't fit (the buffer then holds truncated values and must
 *   not be copied out), else 0.  Functions with no narrowing return void.
 *
 * Guest handles.  A compat handle is a 32-bit pointer.  It arrives in
 * the native handle's p zero-extended, never sign-extended: 0xfffff000
 * becomes 0x00000000fffff000, an address the caller range-checks
 * against the compat guest's limit (its hypervisor hole, from
 * COMPAT_HYPERVISOR_VIRT_START or lower) before any access, as every
 * guest address.  What a handle points to is in compat layout too: an
 * array of xen_pfn_t or xen_ulong_t has 4-byte elements (COMPAT_SIZEOF(
 * xen_pfn_t)), a vcpumask is an array of 32-bit words, and the caller
 * walks such arrays element by element.
 *
 * Structures laid out alike in both (xlat.lst's "?": event channel ops,
 * most grant and physdev ops, sched_shutdown, mmu_update, ...) are used
 * in their native form; pv/compat/same.h lists them and the build fails
 * if one of them changes layout (pv/compat/check-same.c).  The shared
 * info page and vcpu_info are the guest's own memory, not copies: they
 * are not translated, the shim reads and writes their members in place
 * with compat_get()/compat_put() (COMPAT_OFFSET(shared_info, ...)).
 *
 * Names follow xlat.lst (memory_reservation for struct
 * xen_memory_reservation); the layout macros use the C struct tag.
 */
#ifndef PV_COMPAT_XLAT_H
#define PV_COMPAT_XLAT_H

#include "pv/compat/layout.h"
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/grant_table.h>
#include <xen/memory.h>
#include <xen/physdev.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/version.h>

/* ---- xen.h (pv/compat/xlat-xen.c) ---- */

/*
 * For the domain builder.  The console union is taken as dom0's when
 * SIF_INITDOMAIN is in n->flags, else as domU's (the ABI's rule).
 * -XEN_ERANGE if an address, frame or count is 4 GiB or more: a compat
 * start_info can't hold it (shared_info is a machine address).
 */
int xlat_start_info_to_compat(void *c, const struct start_info *n);

/* eax..esp into rax..rsp; r8-r15 zero; selectors and flags as given. */
void xlat_cpu_user_regs_from_compat(struct cpu_user_regs *n, const void *c);

void xlat_trap_info_from_compat(struct trap_info *n, const void *c);

/*
 * The code selectors of a compat guest's event and failsafe callbacks,
 * which a 64-bit vcpu_guest_context or callback_register has no field
 * for (Xen overlays them on syscall_callback_eip, under __XEN__ only).
 */
struct compat_callback_cs {
    unsigned int event;
    unsigned int failsafe;
};

/*
 * VCPUOP_initialise's context.  ctrlreg[] keep the compat encoding:
 * cr3 holds a frame folded as xen_pfn_to_cr3() of xen-x86_32.h, which the
 * caller unfolds (xen_cr3_to_pfn_x86_32() in <xen/foreign/x86_32.h>); a
 * compat guest has no user page table, so ctrlreg[1] means nothing.
 * The callbacks' eips land in event_callback_eip and
 * failsafe_callback_eip, their selectors in *cs; syscall_callback_eip
 * and the segment bases (64-bit only) are zero.
 */
void xlat_vcpu_guest_context_from_compat(struct vcpu_guest_context *n,
                                         struct compat_callback_cs *cs,
                                         const void *c);

/*
 * arg1 and arg2 are zero-extended whatever cmd says, which is right for
 * each of their meanings (mfn, linear_addr, nr_ents, vcpumask, src_mfn).
 */
void xlat_mmuext_op_from_compat(struct mmuext_op *n, const void *c);

/*
 * One multicall entry in, and back out.  Every field is cut to its low
 * 32 bits on the way out: op and args came in from the compat guest, and
 * result is a compat hypercall's return value, whose low half is the
 * guest's long (-22 stays -22).  As for a 64-bit guest, only result
 * goes back to the guest (COMPAT_OFFSET/MSIZE(multicall_entry, result)).
 */
void xlat_multicall_entry_from_compat(struct multicall_entry *n,
                                      const void *c);
void xlat_multicall_entry_to_compat(void *c, const struct multicall_entry *n);

/* ---- vcpu.h, callback.h, sched.h, version.h (xlat-vcpu.c) ---- */

/* Laid out with its uint64_t members 4-aligned: 44 bytes, not 48. */
void xlat_vcpu_runstate_info_to_compat(void *c,
                                       const struct vcpu_runstate_info *n);

/*
 * VCPUOP_register_runstate_memory_area and _vcpu_time_memory_area: the
 * area's address from the union's 32-bit handle.  Xen reads only that
 * handle, COMPAT_MSIZE(..., addr__h) bytes, never the union's upper half:
 * the caller copies in that many (the rest of c is ignored).
 */
void xlat_vcpu_register_runstate_memory_area_from_compat(
    struct vcpu_register_runstate_memory_area *n, const void *c);
void xlat_vcpu_register_time_memory_area_from_compat(
    struct vcpu_register_time_memory_area *n, const void *c);

/* The same members at the same offsets: only the size (12) differs. */
void xlat_vcpu_set_singleshot_timer_from_compat(
    struct vcpu_set_singleshot_timer *n, const void *c);

/* The callback's eip into n->address, its selector into *cs. */
void xlat_callback_register_from_compat(struct callback_register *n,
                                        unsigned int *cs, const void *c);

void xlat_sched_poll_from_compat(struct sched_poll *n, const void *c);

/* XENVER_platform_parameters: virt_start must be below 4 GiB. */
int xlat_platform_parameters_to_compat(
    void *c, const struct xen_platform_parameters *n);

/* ---- memory.h (xlat-memory.c) ---- */

void xlat_memory_reservation_from_compat(struct xen_memory_reservation *n,
                                         const void *c);
int xlat_memory_reservation_to_compat(void *c,
                                      const struct xen_memory_reservation *n);

/* Both reservations as above; nr_exchanged goes back to the guest. */
void xlat_memory_exchange_from_compat(struct xen_memory_exchange *n,
                                      const void *c);
int xlat_memory_exchange_to_compat(void *c,
                                   const struct xen_memory_exchange *n);

/* Out as well: XENMAPSPACE_gmfn_range writes its progress back. */
void xlat_add_to_physmap_from_compat(struct xen_add_to_physmap *n,
                                     const void *c);
int xlat_add_to_physmap_to_compat(void *c,
                                  const struct xen_add_to_physmap *n);

/* idxs are xen_ulong_t, gpfns xen_pfn_t: 4-byte elements; errs int. */
void xlat_add_to_physmap_batch_from_compat(
    struct xen_add_to_physmap_batch *n, const void *c);
int xlat_add_to_physmap_batch_to_compat(
    void *c, const struct xen_add_to_physmap_batch *n);

void xlat_remove_from_physmap_from_compat(struct xen_remove_from_physmap *n,
                                          const void *c);

/* XENMEM_memory_map: nr_entries in and out; e820 entries are alike. */
void xlat_memory_map_from_compat(struct xen_memory_map *n, const void *c);
int xlat_memory_map_to_compat(void *c, const struct xen_memory_map *n);

/* All uint64_t: only the size (36, not 40) differs. */
void xlat_pod_target_from_compat(struct xen_pod_target *n, const void *c);
void xlat_pod_target_to_compat(void *c, const struct xen_pod_target *n);

/* XENMEM_machphys_mfn_list: extent_start has 4-byte (compat) mfns. */
void xlat_machphys_mfn_list_from_compat(struct xen_machphys_mfn_list *n,
                                        const void *c);
int xlat_machphys_mfn_list_to_compat(void *c,
                                     const struct xen_machphys_mfn_list *n);

/* XENMEM_machphys_mapping: the compat M2P's range, below 4 GiB. */
int xlat_machphys_mapping_to_compat(void *c,
                                    const struct xen_machphys_mapping *n);

/* ---- grant_table.h (xlat-grant.c) ---- */

/*
 * setup_table's frame_list has 4-byte elements (xen_pfn_t); Xen cuts a
 * frame to 32 bits there, silently: check each with compat_fits().
 */
void xlat_gnttab_setup_table_from_compat(struct gnttab_setup_table *n,
                                         const void *c);
int xlat_gnttab_setup_table_to_compat(void *c,
                                      const struct gnttab_setup_table *n);

/* mfn is 32 bits in compat. */
void xlat_gnttab_transfer_from_compat(struct gnttab_transfer *n,
                                      const void *c);
int xlat_gnttab_transfer_to_compat(void *c,
                                   const struct gnttab_transfer *n);

/*
 * Each side's u is a grant ref or a 32-bit gmfn (GNTCOPY_*_gref): taken
 * zero-extended either way, and on the way out a gmfn must fit.
 */
void xlat_gnttab_copy_from_compat(struct gnttab_copy *n, const void *c);
int xlat_gnttab_copy_to_compat(void *c, const struct gnttab_copy *n);

/* frame_list has uint64_t elements in both layouts. */
void xlat_gnttab_get_status_frames_from_compat(
    struct gnttab_get_status_frames *n, const void *c);
int xlat_gnttab_get_status_frames_to_compat(
    void *c, const struct gnttab_get_status_frames *n);

/* ---- physdev.h (xlat-physdev.c) ---- */

/* bitmap is a handle: nr_ports bits of the guest's memory. */
void xlat_physdev_set_iobitmap_from_compat(struct physdev_set_iobitmap *n,
                                           const void *c);

/* apic_physbase is 32 bits in compat; value is IN or OUT. */
void xlat_physdev_apic_from_compat(struct physdev_apic *n, const void *c);
int xlat_physdev_apic_to_compat(void *c, const struct physdev_apic *n);

/* table_base is uint64_t at a 4-aligned offset (36 bytes, not 40). */
void xlat_physdev_map_pirq_from_compat(struct physdev_map_pirq *n,
                                       const void *c);
void xlat_physdev_map_pirq_to_compat(void *c,
                                     const struct physdev_map_pirq *n);

void xlat_physdev_pirq_eoi_gmfn_from_compat(
    struct physdev_pirq_eoi_gmfn *n, const void *c);

#endif /* PV_COMPAT_XLAT_H */
