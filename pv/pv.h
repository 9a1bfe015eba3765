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
struct pv_guest_info {
    unsigned long nr_pages;             /* its memory, in 4 KiB pages */
    unsigned int max_vcpus;
    unsigned long store_mfn, console_mfn;   /* the rings' frames */
};
void pv_guest_info(struct pv_guest_info *info);
struct xencons_interface *pv_console_ring(void);
struct xenstore_domain_interface *pv_store_ring(void);

#endif /* PV_PV_H */
