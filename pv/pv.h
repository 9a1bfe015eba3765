/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pv/ toward the rest of the shim: all that shim/ and backends/ know of
 * the PV guest.  start_shim()'s steps that make and start it, and what
 * the shim's own backends (console, xenstore) see: the guest as a
 * toolstack knows it, its shared ring pages and the event channel ports
 * bound to them.  Everything else of pv/ stays behind this header.
 */
#ifndef PV_PV_H
#define PV_PV_H

#include "shim/lib.h"

struct boot_info;
struct lock_profile_qhead;
struct memmap;
struct xencons_interface;
struct xenstore_domain_interface;

/* ------------------------------------------------- start_shim()'s steps */

/* pv/mm/: the machine-to-physical table, then the frame table. */
void pv_m2p_init(void);
void pv_mm_init(const struct memmap *m);

/* pv/build/domain-build.c: build the guest from the boot modules. */
void pv_domain_build(struct boot_info *bi);

/* pv/dump.c: the debug keys 'q' (domain and vCPUs), 'e', 'r'. */
void pv_keyhandler_init(void);

/* pv/vcpu/smp.c: this CPU (0) runs vCPU 0; the others' CPUs are told. */
noreturn void pv_start_guest(void);

/* --------------------------------------------------------- the backends */

/* As a toolstack would allocate them for a domU: xenstore, then console. */
#define EVTCHN_STORE_PORT   1
#define EVTCHN_CONSOLE_PORT 2

/*
 * A backend in the shim ("domain 0") notifies the guest port bound to its
 * end @backend_port (EVTCHN_STORE_PORT, EVTCHN_CONSOLE_PORT): the event
 * is raised as if sent from the remote end; nothing if the guest closed
 * its end.  (pv/event/event-channel.c)
 */
void pv_evtchn_notify_guest(unsigned int backend_port);

/*
 * pv/toolstack.c: the guest as the toolstack knows it when it writes the
 * guest's xenstore entries (libxl's domain_make and build_post); and its
 * console and xenstore pages (xen/io/console.h, xen/io/xs_wire.h),
 * mapped in the shim: NULL before the guest is built.
 */
/*
 * What the shim keeps free for itself beyond the M2P: the builder gives
 * the guest no more than the rest, and the host's balloon never leaves the
 * allocator under half of it (what the shim took since is the reserve's).
 */
#define PV_SHIM_RESERVE_PAGES   ((16UL << 20) >> PAGE_SHIFT)

struct pv_guest_info {
    unsigned long nr_pages;             /* its memory, in 4 KiB pages */
    unsigned int max_vcpus;
    bool compat;                        /* a 32-bit PAE guest */
    unsigned long store_mfn, console_mfn;   /* the rings' frames */
};
void pv_guest_info(struct pv_guest_info *info);
/*
 * The guest's maximum reservation, as the toolstack's xl mem-set sets it
 * (Xen's XEN_DOMCTL_max_mem): at most @pages frames from now on, never
 * past what it was built with; frames it holds beyond stay its own.
 * pv_tot_pages(): the frames it holds now (a glance).
 */
void pv_set_max_pages(unsigned long pages);
unsigned long pv_tot_pages(void);
struct xencons_interface *pv_console_ring(void);
struct xenstore_domain_interface *pv_store_ring(void);

/* ------------------------------------- backends of the guest's devices */

/*
 * The guest's list of profiled locks ("Domain 1 ..." in the lock
 * profile), where its devices' locks go too (lock_profile_name()).
 */
struct lock_profile_qhead *pv_lock_profile_head(void);

/*
 * The backends' lock (docs/architecture.md, "Locks"), an rwlock: their
 * softirqs run reading it (pv_do_softirq(), _read_lock_unless_held()),
 * not under the domain lock; the VM's end, which drains them, an
 * mm-audit, which holds them still, the 'b' key and CONSOLEIO_read (the
 * serial input the console backend also takes) write it
 * (_lock_unless_held()).  Inside the domain lock, outside every other;
 * waited for with interrupts on.  pv_backend_locked(): does this CPU
 * hold it, either way (their calls into pv/ assert it).
 */
bool pv_backends_lock_unless_held(void);
bool pv_backends_read_lock_unless_held(void);
void pv_backends_unlock_taken(bool taken);
bool pv_backend_locked(void);

/*
 * pv/event/event-backend.c: a backend binds to the port the guest
 * allocated for it (EVTCHNOP_alloc_unbound with remote_dom 0), as a dom0
 * backend's EVTCHNOP_bind_interdomain: the guest's port becomes
 * interdomain, a send on it raises @softirq on CPU @cpu (the CPU that
 * serves that ring: a queue's, or 0), and
 * pv_evtchn_notify_guest() of the backend port returned (> 0) raises the
 * guest's; -XEN_EINVAL if @guest_port is not unbound for domain 0,
 * -XEN_ENOSPC if the shim's ports are all taken.  Unbinding puts the
 * guest's port back to unbound; if the guest closed its end first, no
 * notification reaches it (nor the port number it may reuse) meanwhile:
 * pv_evtchn_backend_bound() says whether it is still bound.
 */
int pv_evtchn_bind_backend(unsigned int guest_port, unsigned int softirq,
                           unsigned int cpu);
/*
 * The shim's ports (domain 0's 1 to PV_BACKEND_PORTS): the console's,
 * xenstore's and every backend ring's at once (backends/backends.c
 * checks they fit).
 */
#define PV_BACKEND_PORTS    512
void pv_evtchn_unbind_backend(unsigned int backend_port);
bool pv_evtchn_backend_bound(unsigned int backend_port);

/*
 * pv/grant/grant-backend.c: a backend's mapping of the guest's grant
 * @ref for a device (domain 0's GNTTABOP_map_grant_ref with
 * GNTMAP_device_map, and GNTMAP_readonly when the device only reads the
 * frame): the entry must permit access to domain 0 (read-only grants
 * only read-only maps), the grant stays pinned (GTF_reading, and
 * GTF_writing unless @readonly: the guest's end of access fails) and the
 * frame referenced (with a writable type unless @readonly: it can't
 * become a page table or descriptor table) until the unmap, so a frame
 * the guest gives back meanwhile is never reused.  GNTST_okay and
 * *@handle, *@maddr the frame's machine address (the shim reaches it at
 * __va(), a device at the address itself), or a GNTST_* error (< 0).
 * Any CPU, any lock of the backends' held or none: it takes the grant
 * table's own locks (docs/architecture.md, "Grant tables").
 */
int pv_grant_map_dev(uint32_t ref, bool readonly, unsigned int *handle,
                     uint64_t *maddr);
/*
 * Handles for every backend at once; each backend keeps to its own
 * share (backends/backends.c checks they add up), so one backend's load
 * never makes another's maps fail.
 */
#define PV_BACKEND_MAPS     36864
void pv_grant_unmap_dev(unsigned int handle);

#endif /* PV_PV_H */
