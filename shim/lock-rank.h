/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Lock classes in their order, outermost first: a CPU takes a lock only
 * while every lock it holds has a lower rank.  Each spinlock and rwlock
 * is given its class where it is set up (shim/spinlock.h); the debug
 * build checks the order at every acquisition and panics with both
 * names.  What each lock protects: docs/architecture.md, "Locks".
 */
#ifndef SHIM_LOCK_RANK_H
#define SHIM_LOCK_RANK_H

#include "shim/lib.h"

/*
 * The order is docs/architecture.md's nesting diagram, made linear, with
 * the classes issue 19 brings in placed where Xen nests its own: Xen's
 * event_lock outside a port's lock outside a FIFO queue's
 * (xen/common/event_channel.c, event_fifo.c), a vCPU's scheduling state
 * inside the port lock (evtchn_port_set_pending() wakes the vCPU), the
 * grant table's lock outside its active entries' outside the maptrack
 * (xen/common/grant_table.c), a frame's page_lock inside those (an unmap
 * rewrites the PTE under its L1's page lock) and outside the allocator's
 * lock and the flush (a put_page() there may free the frame, a type
 * change flush).  Classes that never nest with each other (a vbd's and
 * a vif's lock, the leaves at the end) are in an arbitrary order.
 */
enum lock_rank {
    LOCK_RANK_NONE,             /* 0: a lock never set up; taking it panics */

    /* The domain-wide lock of the interim design (struct domain). */
    LOCK_RANK_DOMAIN,
    /*
     * The shim's backends (domain 0's side): their softirqs, the VM's
     * end draining them, mm-audit holding them still (pv/toolstack.c).
     */
    LOCK_RANK_BACKENDS,
    /* A guest disk's lock (backends/blk/, struct vbd). */
    LOCK_RANK_VBD,
    /*
     * One of a guest disk's rings (struct vbd's ring_lock[]): its
     * requests and their device requests; one at a time.
     */
    LOCK_RANK_VBD_RING,
    /* A guest NIC's lock (backends/net/, struct vif). */
    LOCK_RANK_VIF,
    /*
     * One of a guest NIC's queues (struct vif's queue_lock[]): its
     * rings, TX packets in flight, RX packets held; one at a time.
     */
    LOCK_RANK_VIF_QUEUE,
    /* The domain's port table: bind, close, FIFO set-up (d->event_lock). */
    LOCK_RANK_EVENT,
    /*
     * One port's lock (Xen's evtchn->lock): send, unmask, set pending.
     * Nests by address: two ports' locks, lower address first, as
     * Xen's double_evtchn_lock() for EVTCHNOP_bind_interdomain.
     */
    LOCK_RANK_EVTCHN,
    /*
     * One FIFO queue's lock (Xen's evtchn_fifo_queue.lock).  Nests by
     * address: a port moving queues holds its old one's and its new
     * one's, lower address first, as Xen's evtchn_fifo_set_pending().
     */
    LOCK_RANK_EVTCHN_FIFO_QUEUE,
    /*
     * A vCPU's state (running, blocked, down): Xen's scheduling lock,
     * which a wake-up takes under the port lock.  (A lock like Xen's
     * v->virq_lock would sit between EVENT and EVTCHN.)
     */
    LOCK_RANK_VCPU,
    /*
     * A vCPU's GDT frames and its CPU's copy of them (pv/descriptor-
     * tables.c): set_gdt, the CPU starting the vCPU, update_descriptor
     * keeping each copy in step.  Xen maps the frames instead.
     */
    LOCK_RANK_GDT,
    /*
     * XENMEM_exchange's one chunk in flight (pv/mm/memory.c): its frames
     * stolen under the grant table's lock and page_alloc_lock, taken
     * from the allocator, flushed.
     */
    LOCK_RANK_EXCHANGE,
    /* The grant table's rwlock (Xen's gt->lock). */
    LOCK_RANK_GRANT_TABLE,
    /* One active grant entry's lock (Xen's active_grant_entry.lock). */
    LOCK_RANK_GRANT_ACTIVE,
    /* A grant table's maptrack free list (Xen's maptrack_lock). */
    LOCK_RANK_MAPTRACK,
    /* A frame's page_lock() bit, a PTE's updates (Xen's PGT_locked). */
    LOCK_RANK_PAGE,
    /* Frames passing between the allocator and the guest, tot_pages. */
    LOCK_RANK_PAGE_ALLOC,
    /* The one cross-CPU TLB flush in flight (arch/x86/flush.c). */
    LOCK_RANK_FLUSH,
    /* One XEN_SYSCTL_lockprof_op at a time (pv/control-ops.c). */
    LOCK_RANK_SYSCTL,
    /* The lists of profiled locks (shim/spinlock.c). */
    LOCK_RANK_LOCK_PROFILE,
    /* The 't' key's statistics (shim/keyhandler.c). */
    LOCK_RANK_READ_CLOCKS,
    /* One smp_call_function_single() at a time (arch/x86/smp.c). */
    LOCK_RANK_CALL,
    /* A virtio-blk queue: its ring and request slots. */
    LOCK_RANK_BLK_QUEUE,
    /* An NVMe I/O queue pair: SQ tail, CQ head and phase, slots. */
    LOCK_RANK_NVME_QUEUE,
    /*
     * A software-GSO packet's context (drivers/net.c): its rounds,
     * taken under a vif queue's lock (netback's send) and from
     * completions; outside the pair's send side, which each round's
     * segments take.
     */
    LOCK_RANK_NET_GSO,
    /* A virtio-net pair's receive side: ring, packet pool. */
    LOCK_RANK_NET_RX,
    /* A virtio-net pair's send side: ring, header slots. */
    LOCK_RANK_NET_TX,
    /*
     * A virtio-net device's control queue: one command at a time, at
     * probe and from its receiver (a vif's connect, under its lock).
     */
    LOCK_RANK_NET_CTRL,
    /* Configuration mechanism #1's 0xcf8/0xcfc pair (drivers/pci.c). */
    LOCK_RANK_PCI_CONF,
    /* The frame allocator's bitmap (shim/frame.c, Xen's heap_lock). */
    LOCK_RANK_HEAP,
    /* SCHEDOP_watchdog's timers (pv/vcpu/sched.c, Xen's watchdog_lock). */
    LOCK_RANK_WATCHDOG,
    /*
     * A CPU's timer list (shim/timer.c): a leaf, taken under any of the
     * above (the domain lock, a vbd's or vif's, event_lock, a vCPU's).
     */
    LOCK_RANK_TIMER,
    /*
     * The guest's console_io line (pv/console.c, Xen's d->pbuf_lock),
     * then the console itself (shim/console.c, Xen's console_lock): the
     * innermost of all, since printk() is called under any lock.
     */
    LOCK_RANK_CONSOLE_PBUF,
    LOCK_RANK_CONSOLE,

    LOCK_RANK_NR
};

/*
 * @r, checked at build time to be a class above: every lock's set-up
 * names one, a constant (SPIN_LOCK_UNLOCKED() and friends use this).
 */
#define LOCK_RANK(r)                                                        \
    ((r) + 0 * sizeof(struct {                                              \
        _Static_assert((r) > LOCK_RANK_NONE && (r) < LOCK_RANK_NR,          \
                       "a lock class of shim/lock-rank.h");                 \
        char c_;                                                            \
    }))

/*
 * A class's name in the order checker's messages: its lock's name where
 * there is one lock, the structure's where there are many.  No default,
 * so -Wswitch refuses a class without a name.
 */
static inline const char *lock_rank_name(unsigned int r)
{
    switch ( (enum lock_rank)r )
    {
    case LOCK_RANK_NONE:                return "(no rank)";
    case LOCK_RANK_DOMAIN:              return "domain_lock";
    case LOCK_RANK_BACKENDS:            return "backends";
    case LOCK_RANK_VBD:                 return "vbd";
    case LOCK_RANK_VBD_RING:            return "vbd_ring";
    case LOCK_RANK_VIF:                 return "vif";
    case LOCK_RANK_VIF_QUEUE:           return "vif_queue";
    case LOCK_RANK_EVENT:               return "event_lock";
    case LOCK_RANK_EVTCHN:              return "evtchn";
    case LOCK_RANK_EVTCHN_FIFO_QUEUE:   return "evtchn_fifo_queue";
    case LOCK_RANK_VCPU:                return "vcpu";
    case LOCK_RANK_GDT:                 return "gdt_lock";
    case LOCK_RANK_EXCHANGE:            return "exchange_lock";
    case LOCK_RANK_GRANT_TABLE:         return "grant_table";
    case LOCK_RANK_GRANT_ACTIVE:        return "grant_active";
    case LOCK_RANK_MAPTRACK:            return "maptrack";
    case LOCK_RANK_PAGE:                return "page";
    case LOCK_RANK_PAGE_ALLOC:          return "page_alloc_lock";
    case LOCK_RANK_FLUSH:               return "flush_lock";
    case LOCK_RANK_SYSCTL:              return "sysctl_lock";
    case LOCK_RANK_LOCK_PROFILE:        return "lock_profile_lock";
    case LOCK_RANK_READ_CLOCKS:         return "read_clocks_lock";
    case LOCK_RANK_CALL:                return "call_lock";
    case LOCK_RANK_BLK_QUEUE:           return "blk_queue";
    case LOCK_RANK_NVME_QUEUE:          return "nvme_queue";
    case LOCK_RANK_NET_GSO:             return "net_gso";
    case LOCK_RANK_NET_RX:              return "net_rx";
    case LOCK_RANK_NET_TX:              return "net_tx";
    case LOCK_RANK_NET_CTRL:            return "net_ctrl";
    case LOCK_RANK_PCI_CONF:            return "pci_conf_lock";
    case LOCK_RANK_HEAP:                return "heap_lock";
    case LOCK_RANK_WATCHDOG:            return "watchdog_lock";
    case LOCK_RANK_TIMER:               return "timer";
    case LOCK_RANK_CONSOLE_PBUF:        return "pbuf_lock";
    case LOCK_RANK_CONSOLE:             return "console_lock";
    case LOCK_RANK_NR:                  break;
    }
    return "(bad rank)";
}

/*
 * Classes whose locks nest among themselves, by address: a CPU holding
 * some may take another only at a higher address.
 */
static inline bool lock_rank_nests_by_address(unsigned int r)
{
    return r == LOCK_RANK_EVTCHN || r == LOCK_RANK_EVTCHN_FIFO_QUEUE;
}

#endif /* SHIM_LOCK_RANK_H */
