/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one PV domain pvshim runs, and its vCPUs: everything the guest has
 * told us (trap table, callbacks, stacks, segment bases) and everything we
 * built for it (memory, page tables, shared_info, console ring).  The
 * structures only: each part's functions are in its own header (the
 * domain's life cycle in pv/lifecycle.h, the domain lock and the vCPUs'
 * CPUs in pv/vcpu/smp.h, ...; toward the rest of the shim, pv/pv.h).
 */
#ifndef PV_DOMAIN_H
#define PV_DOMAIN_H

#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/grant_table.h>
#include <xen/vcpu.h>
#include "arch/x86/layout.h"
#include "arch/x86/percpu.h"
#include "arch/x86/regs.h"
#include "shim/spinlock.h"
#include "shim/timer.h"

/*
 * Event channels (pv/event/): one port's state, as Xen's struct evtchn.
 * The domain has at most EVTCHN_MAX_PORTS (Xen's default
 * max_evtchn_port for a domU is 1023), whichever ABI it uses.
 */
#define EVTCHN_MAX_PORTS    1024
#define EVTCHNS_PER_BUCKET  64          /* Xen grows its table by these */
#define EVTCHN_FIFO_MAX_ARRAY_PAGES \
    (EVTCHN_FIFO_NR_CHANNELS / (4096 / sizeof(event_word_t)))

enum evtchn_state {
    ECS_FREE, ECS_RESERVED, ECS_UNBOUND, ECS_INTERDOMAIN, ECS_PIRQ,
    ECS_VIRQ, ECS_IPI,
};

/*
 * Each port has its own lock (Xen's evtchn->lock): a port's state and
 * binding change under it and the domain's event_lock; a send, an
 * unmask, a priority change and a port going pending take it alone
 * (docs/architecture.md, "Locks").
 */
struct evtchn {
    spinlock_t lock;
    uint8_t state;                      /* ECS_* */
    uint8_t priority;                   /* FIFO queue */
    bool pending;                       /* FIFO: raised with no array page */
    uint8_t last_priority;              /* FIFO: the queue it was last on */
    uint16_t notify_vcpu_id;
    uint16_t last_vcpu_id;
    uint16_t remote_dom;                /* unbound, interdomain */
    uint16_t remote_port;               /* interdomain */
    uint16_t virq;                      /* virq */
};

struct evtchn_fifo_queue {
    spinlock_t lock;                    /* tail, and linking onto it */
    uint32_t *head;                     /* in the control block */
    uint32_t tail;
};


/*
 * Grant tables (pv/grant/): the guest's table, as Xen's struct
 * grant_table, with Xen's default limits for a domU (gnttab_max_frames
 * 64, gnttab_max_maptrack_frames 1024).  Frames are allocated as the
 * table grows; the active entries and maptrack are the shim's alone.
 */
#define GNTTAB_MAX_FRAMES           64
#define GNTTAB_MAX_STATUS_FRAMES    8       /* grant_to_status_frames(64) */
#define GNTTAB_MAX_MAPTRACK_FRAMES  1024
/*
 * The active entries' frames for GNTTAB_MAX_FRAMES * 512 entries: 386 at
 * 48 bytes an entry (pv/grant/grant-table.c checks it at build time).
 */
#define GNTTAB_MAX_ACTIVE_FRAMES    512

struct active_grant_entry;
struct grant_mapping;

/*
 * The guest's grant table, locked as Xen's (docs/architecture.md,
 * "Locks"): @lock (Xen's gt->lock) read by every op on entries, written
 * to change the version or the frames; each active entry's own lock;
 * @maptrack_lock for the handles' free list and the maptrack's growth.
 */
struct grant_table {
    rwlock_t lock;
    spinlock_t maptrack_lock;
    unsigned int version;               /* 1 or 2; 0 before first use */
    unsigned int nr_frames;             /* shared frames */
    unsigned int nr_status_frames;      /* v2 status frames */
    unsigned int nr_active_frames;
    unsigned int maptrack_limit;        /* handles in allocated frames */
    unsigned int maptrack_head, maptrack_tail;  /* free list (Xen's) */
    void *shared[GNTTAB_MAX_FRAMES];
    grant_status_t *status[GNTTAB_MAX_STATUS_FRAMES];
    struct active_grant_entry *active[GNTTAB_MAX_ACTIVE_FRAMES];
    struct grant_mapping *maptrack[GNTTAB_MAX_MAPTRACK_FRAMES];
};

struct vcpu {
    unsigned int id;
    struct domain *domain;
    vcpu_info_t *vcpu_info;             /* in shared_info */

    bool kernel_mode;                   /* guest kernel, not guest user */
    /* The kernel's last #PF bounced, and how often it came in a row. */
    unsigned long pf_rip, pf_addr, pf_repeats;
    unsigned long event_callback_eip;
    /* A 32-bit guest's callbacks' code selectors (ring 1 by default). */
    uint16_t event_callback_cs, failsafe_callback_cs;
    uint16_t syscall32_callback_cs, sysenter_callback_cs;
    bool syscall32_disables_events;     /* CALLBACKF_mask_events */
    unsigned long failsafe_callback_eip;
    unsigned long syscall_callback_eip;
    unsigned long nmi_callback_eip;
    unsigned long syscall32_callback_eip;   /* 32-bit user mode's */
    unsigned long sysenter_callback_eip;
    bool failsafe_disables_events, syscall_disables_events;
    unsigned long kernel_ss, kernel_sp;  /* stack_switch() */

    unsigned long fs_base, gs_base_kernel, gs_base_user;
    unsigned long guest_table;          /* L4 mfn, kernel mode (compat: L3) */
    unsigned long guest_table_user;     /* L4 mfn, user mode (0: none) */
    /*
     * A 32-bit guest's root is an L3, which long mode can't load: CR3 is
     * this shim-owned L4 instead, slot 0 pointing at guest_table and the
     * shim's slots as in every L4 (Xen's setup_compat_l4()).
     */
    unsigned long compat_l4;
    uint16_t data_sel[4];               /* ds es fs gs to (re)start on */
    unsigned long ctrlreg0_ts;          /* fpu_taskswitch: guest's CR0.TS */
    unsigned long cr4_guest;            /* CR4 bits it set: TSD, OSXSAVE */
    unsigned long debugreg[8];          /* set_debugreg(): DR0-3, 6, 7 */
    unsigned int iopl;                  /* vm_assist architectural_iopl */
    bool in_multicall;                  /* a multicall's entry runs */
    /*
     * That entry, whose arguments a continuation of its call rewrites
     * (hypercall_create_continuation()), and whether one did: the batch
     * then stops there and continues itself from it (Xen's
     * MCSF_call_preempted).
     */
    multicall_entry_t *mc_call;
    bool mc_preempted;
    /* set_gdt(): the guest's frames; under gdt_lock, with the CPU's copy. */
    spinlock_t gdt_lock;
    unsigned long gdt_frames[14];
    unsigned int gdt_ents;
    unsigned long ldt_frames[16];       /* MMUEXT_SET_LDT's, typed */
    unsigned long ldt_base;
    unsigned int ldt_ents;

    /* Guest user mode: mode switches, vIOPL, FPU (user-mode work). */
    bool sysenter_disables_events;      /* CALLBACKF_mask_events */
    unsigned long iobmp;                /* PHYSDEVOP_set_iobitmap: guest VA */
    unsigned int iobmp_limit;           /* ... and how many ports it covers */

    /* Event channels, blocking and VCPUOPs (pv/event/, sched.c, vcpu.c). */
    unsigned long vcpu_info_mfn;        /* register_vcpu_info's, or 0 */
    uint16_t virq_to_evtchn[NR_VIRQS];
    evtchn_fifo_control_block_t *fifo_control;
    unsigned long fifo_control_mfn;
    struct evtchn_fifo_queue fifo_queue[EVTCHN_FIFO_MAX_QUEUES];
    bool blocked;                       /* SCHEDOP_block / poll sleeping */
    bool polling;                       /* Xen's bit in d->poll_mask */
    int poll_evtchn;                    /* the one port polled, -1 many */
    struct timer poll_timer;
    struct vcpu_runstate_info runstate;
    unsigned int runstate_seq;          /* odd while its CPU changes it */
    unsigned long runstate_guest;       /* guest VA, or 0 */
    bool runstate_update_pending;       /* failed in user mode: retry in */
    bool nmi_masked;                    /* in the NMI callback, until iret */

    /* Time: vcpu_time_info and the guest's timers (pv/vcpu/time.c). */
    struct timer singleshot_timer, periodic_timer;
    struct timer time_update_timer;     /* refreshes the copies each second */
    uint64_t periodic_period, periodic_last_event;
    unsigned long time_info_guest;      /* guest VA of the copy, or 0 */
    struct vcpu_time_info time;         /* what was last published */
    bool time_update_pending;           /* copy failed in user mode */

    /*
     * Bringing it up and down (VCPUOP_initialise, _up, _down; pv/vcpu/vcpu.c,
     * pv/vcpu/smp.c), all under the domain lock: initialised once, with the
     * registers it starts from in start_regs; down as Xen's _VPF_down
     * (an uninitialised vCPU is down); running while its CPU runs it
     * (from entering it until that CPU is back in its idle loop).
     */
    bool is_initialised;
    union {
        struct {
            bool down;
            bool nmi_pending;           /* VCPUOP_send_nmi */
        };
        uint16_t down_or_nmi;           /* both for the exit's one test */
    };
    bool running;
    bool started;                       /* entered once: XCR0 is set */
    struct cpu_regs start_regs;
    /* The FXSAVE image it starts with (VCPUOP_initialise's, or Xen's
     * default: FCW 0x37f, MXCSR 0x1f80), loaded on its first start. */
    uint8_t fpu_start[512] __aligned(16);

    /*
     * Last, so that what every entry and exit reads shares a page above
     * (shim/lib.h: QEMU's soft TLB); a bounce reads one entry.
     */
    trap_info_t trap_ctxt[256];         /* set_trap_table(); address 0: none */
};

/*
 * The guest's frames as the builder handed them out: pfns [pfn, pfn + nr)
 * are machine frames from mfn up (or, with pv-p2m-reverse, down).  A few
 * runs cover any memory map, so no per-frame list is kept: the guest's
 * own p2m (its mfn_list) is written straight from these.
 */
#define P2M_MAX_RUNS    64

struct p2m_run {
    unsigned long pfn, mfn, nr;
};

#define MAX_VCPUS   NR_CPUS

/* SCHEDOP_watchdog's timers a domain may have, as Xen's. */
#define NR_DOMAIN_WATCHDOG_TIMERS   2

struct domain {
    unsigned long nr_pages;             /* guest pseudo-physical pages */
    unsigned long tot_pages;            /* frames it holds (Xen's): nr_pages
                                           less what it gave back */
    unsigned long max_pages;            /* what it may hold (Xen's): nr_pages
                                           or the toolstack's lower target */
    shared_info_t *shared_info;
    unsigned long shared_info_mfn;
    unsigned long vm_assist;            /* VMASST_TYPE_* bits */
    bool compat;                        /* a 32-bit PAE guest (Xen's
                                           is_pv_32bit_domain()) */

    /* Event channels: the ABI's extent (the ports are below). */
    unsigned int valid_evtchns;         /* ports in allocated buckets */
    bool evtchn_fifo;                   /* FIFO ABI since init_control */
    unsigned int fifo_num_evtchns;      /* ports the event array covers */

    /* Time: wallclock base (pv/vcpu/time.c). */
    uint64_t time_tsc0, time_ns0;       /* the guest clock's origin */
    uint32_t time_mul;                  /* Xen's set_time_scale() */
    int8_t time_shift;

    /*
     * Xen's per-domain locks, profiled as "Domain 1 <name>"
     * (pv/lockprof.c): frames given to or taken from the guest, and the
     * event channel operations but send and unmask.
     */
    spinlock_t page_alloc_lock;
    spinlock_t event_lock;
    /*
     * The domain lock (pv_domain_lock()): taken by the few hypercalls and
     * paths that still need it, held to the exit.  Every lock's rules,
     * users and nesting: docs/architecture.md, "Locks".
     */
    spinlock_t domain_lock;
    struct lock_profile_qhead profile_head;

    /*
     * vCPU n runs on CPU n (sched=null), so there are as many as CPUs the
     * shim brought up, at most MAX_VCPUS; vcpu[] past max_vcpus is unused.
     * Here, after the fields the entry paths read, so that vCPU 0's own
     * begin on the same page (dom is page-aligned: shim/lib.h).
     */
    unsigned int max_vcpus;
    struct vcpu vcpu[MAX_VCPUS];

    struct p2m_run p2m_run[P2M_MAX_RUNS];
    unsigned int nr_p2m_runs;
    bool p2m_descending;                /* pv-p2m-reverse */

    /* The start-of-day layout (guest virtual), for logging and checks. */
    unsigned long v_start, v_end, start_info_va;

    /* The console ring we are the backend of, and the xenstore page. */
    struct xencons_interface *console;
    unsigned long console_mfn, store_mfn;
    unsigned int console_port, store_port;

    char cmdline[MAX_GUEST_CMDLINE];
    bool shutting_down;                 /* the VM is ending (end_locked()) */
    unsigned int shutdown_code;         /* SCHEDOP_shutdown_code, or ~0 */
    /*
     * SCHEDOP_watchdog's timers (Xen's d->watchdog_*; CPU 0's), the ones
     * set up a bit each in watchdog_inuse, under watchdog_lock.
     */
    spinlock_t watchdog_lock;
    unsigned int watchdog_inuse;
    struct timer watchdog_timer[NR_DOMAIN_WATCHDOG_TIMERS];
    unsigned long unknown_hypercalls;   /* counted, reported at exit */

    /* Event channels: ports, ABI (2-level or FIFO) (pv/event/). */
    struct evtchn evtchn[EVTCHN_MAX_PORTS];
    event_word_t *fifo_array[EVTCHN_FIFO_MAX_ARRAY_PAGES];
    unsigned long fifo_array_mfn[EVTCHN_FIFO_MAX_ARRAY_PAGES];

    /* Grant tables (pv/grant/). */
    struct grant_table grant_table;
};

extern struct domain dom;
extern vcpu_info_t dummy_vcpu_info;     /* pv/vcpu/vcpu.c */

/* The vCPU this CPU runs: its cpu_info says (pv_domain_init(), SMP). */
#ifndef SHIM_HOST_TEST
static inline struct vcpu *current_vcpu(void)
{
    return get_cpu_info()->current;
}
#else
/* A host harness (tests/bench/host-dispatch.c) has no cpu_info: its own. */
extern struct vcpu *host_current_vcpu;
static inline struct vcpu *current_vcpu(void)
{
    return host_current_vcpu;
}
#endif

#endif /* PV_DOMAIN_H */
