/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XEN_SYSCTL_lockprof_op with lock-profile and lock-profile-guest on the
 * shim's command line (Xen answers only its control domain): a query
 * lists Xen's locks with sane counts, event channel operations count on
 * the domain's event_lock and not the domain lock, what touches only the
 * calling vCPU (lock-free
 * hypercalls, user system calls bounced) takes no domain lock while
 * other hypercalls take it once each, grant maps and unmaps take the
 * grant table's locks instead, elements beyond max_elem are
 * counted but not written, a bad or partly bad buffer is -EFAULT and
 * leaves the argument unchanged, an unknown sub-op is -EINVAL, a reset
 * zeroes the counts, and the devices' locks are there too: the disk's
 * and each of its rings' in the domain's list, the virtio-blk and
 * virtio-net queues' in the global one, counted as the disk is read.
 */
#define __XEN_TOOLS__ 1
#include "guest.h"
#include "blkfront.h"
#include "event.h"
#include "lockprof.h"
#include "grant.h"
#include "mm.h"
#include "user.h"
#include <xen/callback.h>
#include <xen/memory.h>
#include <xen/physdev.h>
#include <xen/sysctl.h>

const char test_title[] = "sysctl lockprof_op: query and reset";

#define MAX_LOCKS   128

static struct xen_sysctl op;
static struct xen_sysctl_lockprof_data data[MAX_LOCKS + 1];

static long lockprof(uint32_t cmd, uint32_t max_elem, void *buf)
{
    return lockprof_op(&op, cmd, max_elem, buf);
}

static const struct xen_sysctl_lockprof_data *find(const char *name,
                                                   int32_t type)
{
    unsigned int i;

    for ( i = 0; i < op.u.lockprof_op.nr_elem && i < MAX_LOCKS; i++ )
        if ( !strcmp(data[i].name, name) && data[i].type == type )
            return &data[i];
    test_fail("no %s lock \"%s\" in the profile",
              type == LOCKPROF_TYPE_GLOBAL ? "global" : "domain", name);
    return &data[MAX_LOCKS];            /* zeroes */
}

/* Query everything into data[]; the number of locks. */
static unsigned int query_all(void)
{
    memset(data, 0x5a, sizeof(data));
    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, MAX_LOCKS, data), 0);
    memset(&data[MAX_LOCKS], 0, sizeof(data[MAX_LOCKS]));
    return op.u.lockprof_op.nr_elem;
}

static void check_query(void)
{
    unsigned int i, n;

    query_all();                        /* so sysctl_lock has a count */
    n = query_all();
    if ( n < 4 || n > MAX_LOCKS )
        return test_fail("%u locks in the profile", n);
    if ( (int64_t)op.u.lockprof_op.time <= 0 )
        test_fail("profile time %ld", (long)op.u.lockprof_op.time);
    for ( i = 0; i < n; i++ )
    {
        const struct xen_sysctl_lockprof_data *d = &data[i];

        if ( !d->name[0] ||
             strnlen(d->name, sizeof(d->name)) == sizeof(d->name) )
            test_fail("lock %u: bad name", i);
        if ( d->type == LOCKPROF_TYPE_GLOBAL ? d->idx != 0 :
             d->type != LOCKPROF_TYPE_PERDOM || d->idx != 1 )
            test_fail("%s: type %d idx %d", d->name, d->type, d->idx);
        if ( (int64_t)d->lock_time < 0 || (int64_t)d->block_time < 0 ||
             (d->block_cnt && !d->block_time) || d->block_cnt > d->lock_cnt )
            test_fail("%s: lock %lu(%lu) block %lu(%lu)", d->name,
                      (unsigned long)d->lock_cnt,
                      (unsigned long)d->lock_time,
                      (unsigned long)d->block_cnt,
                      (unsigned long)d->block_time);
    }
    printf("%u locks; page_alloc_lock taken %lu times\n", n,
           (unsigned long)find("page_alloc_lock", LOCKPROF_TYPE_PERDOM)
               ->lock_cnt);
    /*
     * The builder gave the guest its memory under it (a run of frames at a
     * time) and its shared_info frame on its own: twice at least.
     */
    if ( find("page_alloc_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt < 2 )
        test_fail("page_alloc_lock taken fewer than twice at boot");
    find("event_lock", LOCKPROF_TYPE_PERDOM);
    find("flush_lock", LOCKPROF_TYPE_GLOBAL);
    if ( !find("sysctl_lock", LOCKPROF_TYPE_GLOBAL)->lock_cnt )
        test_fail("sysctl_lock: the last sysctl was not counted");
}

/*
 * Ten EVTCHNOPs take event_lock ten times; a send takes it not at all;
 * none takes the domain lock (nor, with mm-audit, audits: they move no
 * frame's references).
 */
static void check_event_lock(void)
{
    const struct xen_sysctl_lockprof_data *dl;
    uint64_t before, after, dl_before;
    unsigned int i;
    long port;

    query_all();
    before = find("event_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt;
    dl_before = find("domain_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt;
    for ( i = 0; i < 5; i++ )
    {
        if ( (port = evtchn_alloc_unbound_self()) < 0 )
            return test_error("alloc_unbound: %ld", port);
        check_rc(evtchn_send(port), 0);
        check_rc(evtchn_close(port), 0);
    }
    query_all();
    after = find("event_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt;
    dl = find("domain_lock", LOCKPROF_TYPE_PERDOM);
    check_rc(after - before, 10);
    /* The first query's own acquisition, and a timer's exit at most. */
    if ( dl->lock_cnt - dl_before > 3 )
        test_fail("15 EVTCHNOPs took the domain lock %lu times",
                  (unsigned long)(dl->lock_cnt - dl_before));
}

#ifdef __x86_64__
/* In user mode: @n system calls, each bounced to the kernel and back. */
static unsigned long user_syscalls(unsigned long n)
{
    unsigned long i, rax;

    for ( i = 0; i < n; i++ )
    {
        rax = 0;
        asm volatile ( "syscall" : "+a" (rax) :: "rcx", "r11", "memory" );
    }
    return 0;
}
#endif

/*
 * What touches only the calling vCPU takes no domain lock, as on Xen:
 * xen_version, stack_switch, fpu_taskswitch, set_timer_op, SCHEDOP_yield,
 * set_segment_base (64-bit), mmuext_op's TLB flushes (local, all, and
 * of a bitmap of vCPUs), a multicall of such calls, a privileged
 * instruction the shim emulates (wbinvd) and one it bounces as #GP (cli
 * without I/O privilege), mmuext_op's pin and
 * unpin of a page table (with mm-audit on, each audit takes it once),
 * a singleshot timer of its own set and stopped, a periodic one too,
 * VCPUOP_is_up,
 * SCHEDOP_yield (both forms) and shutdown_code, memory_op's
 * reservation queries, an empty console_io write, update_descriptor of
 * a frame of its own and an mmuext_op batch with a SET_LDT (as Xen:
 * none of them takes a domain-wide lock; with mm-audit on, each audit
 * takes it once), EVTCHNOP_send (under the
 * port's lock; to an unbound port here, whose events Xen drops, and to
 * an IPI port of its own, with events masked), and (64-bit) the
 * guest's system calls from user mode bounced to its kernel and back
 * with HYPERVISOR_iret.  Against that, a hypercall that takes it (set_gdt,
 * as Xen's takes its domain_lock) counts once each, as does a multicall
 * with one op that needs it.  A little slack for the queries themselves
 * and a timer's softirq, whose exit takes the lock.
 */
#define ROUNDS      200
#define SLACK       20

static uint64_t domain_lock_count(void)
{
    query_all();
    return find("domain_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt;
}

/*
 * xen_version, fpu_taskswitch and a local flush; with @locked the middle
 * one a set_gdt instead (of no frames: the guest keeps Xen's default
 * GDT), which takes the lock as Xen's takes its domain_lock.
 */
static domid_t self_domid = DOMID_SELF;

static void lock_free_multicall(multicall_entry_t calls[3], bool locked)
{
    static struct mmuext_op flush = { .cmd = MMUEXT_TLB_FLUSH_LOCAL };

    memset(calls, 0, 3 * sizeof(*calls));
    calls[0].op = __HYPERVISOR_xen_version;
    calls[0].args[0] = XENVER_version;
    calls[1].op = __HYPERVISOR_fpu_taskswitch;
    if ( locked )
        calls[1].op = __HYPERVISOR_set_gdt;     /* NULL, 0 entries */
    calls[2].op = __HYPERVISOR_mmuext_op;
    calls[2].args[0] = (unsigned long)&flush;
    calls[2].args[1] = 1;
    calls[2].args[3] = DOMID_SELF;
}

static void check_lock_free(void)
{
    struct vcpu_set_singleshot_timer ss = { .timeout_abs_ns = 1ULL << 62 };
    unsigned long self = 1;
    struct mmuext_op flushes[] = {
        { .cmd = MMUEXT_TLB_FLUSH_LOCAL },
        { .cmd = MMUEXT_INVLPG_LOCAL, .arg1.linear_addr = (unsigned long)&ss },
        { .cmd = MMUEXT_TLB_FLUSH_ALL },
        { .cmd = MMUEXT_INVLPG_ALL, .arg1.linear_addr = (unsigned long)&ss },
        { .cmd = MMUEXT_TLB_FLUSH_MULTI, .arg2.vcpumask.p = (void *)&self },
        { .cmd = MMUEXT_INVLPG_MULTI, .arg1.linear_addr = (unsigned long)&ss,
          .arg2.vcpumask.p = (void *)&self },
    }, mixed[] = {
        { .cmd = MMUEXT_TLB_FLUSH_LOCAL },
        { .cmd = MMUEXT_SET_LDT },      /* none: its own LDT, no lock */
        { .cmd = MMUEXT_TLB_FLUSH_LOCAL },
    };
    static char cmdline[1024];
    multicall_entry_t calls[3];
    unsigned long l1 = new_table(1, 0, pte_make(alloc_frame(), PTE_RO));
    unsigned long desc_frame = alloc_frame();
    uint64_t before, taken;
    long unbound, ipi = 0;
    evtchn_port_t port;
    struct physdev_set_iopl iopl = { .iopl = 0 };   /* as it is */
    struct sched_shutdown code = { .reason = SHUTDOWN_poweroff };
    struct vcpu_set_periodic_timer period = { .period_ns = 10000000 };
    unsigned int i;
    bool audit;

    /* The IPI's upcalls (user mode runs with events on) go somewhere. */
    if ( event_init() )
        return test_error("event_init failed");
    if ( (unbound = evtchn_alloc_unbound_self()) < 0 ||
         (ipi = evtchn_bind_ipi_on(0)) < 0 )
        return test_error("binding ports: %ld %ld", unbound, ipi);
    port = ipi;
    check_rc(hypercall_xen_version(XENVER_commandline, cmdline), 0);
    before = domain_lock_count();
    for ( i = 0; i < ROUNDS; i++ )
    {
        check_rc(HYPERCALL(__HYPERVISOR_xen_version, XENVER_version, 0, 0,
                           0, 0) >> 16, 4);
        check_rc(HYPERCALL(__HYPERVISOR_stack_switch, FLAT_KERNEL_SS,
                           (unsigned long)user_kernel_stack +
                           USER_KERNEL_STACK_SIZE, 0, 0, 0), 0);
        check_rc(HYPERCALL(__HYPERVISOR_fpu_taskswitch, 0, 0, 0, 0, 0), 0);
        check_rc(HYPERCALL(__HYPERVISOR_set_timer_op, 0, 0, 0, 0, 0), 0);
        check_rc(hypercall_sched_op(SCHEDOP_yield, NULL), 0);
        check_rc(HYPERCALL(__HYPERVISOR_sched_op_compat, SCHEDOP_yield, 0,
                           0, 0, 0), 0);
        check_rc(hypercall_sched_op(SCHEDOP_shutdown_code, &code), 0);
        check_rc(HYPERCALL(__HYPERVISOR_memory_op, XENMEM_maximum_reservation,
                           &self_domid, 0, 0, 0) > 0, 1);
        check_rc(HYPERCALL(__HYPERVISOR_memory_op, XENMEM_current_reservation,
                           &self_domid, 0, 0, 0) > 0, 1);
        check_rc(hypercall_console_io(CONSOLEIO_write, 0, NULL), 0);
        check_rc(vcpu_op(VCPUOP_set_singleshot_timer, 0, &ss), 0);
        check_rc(vcpu_op(VCPUOP_stop_singleshot_timer, 0, NULL), 0);
        check_rc(vcpu_op(VCPUOP_is_up, 0, NULL), 1);
        check_rc(vcpu_op(VCPUOP_set_periodic_timer, 0, &period), 0);
        check_rc(vcpu_op(VCPUOP_stop_periodic_timer, 0, NULL), 0);
        check_rc(evtchn_send(unbound), 0);
        check_rc(evtchn_send(ipi), 0);
        /* A timeout already past: polling ends at once, pending or not. */
        check_rc(sched_poll(&port, 1, 1), 0);
        check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                           VMASST_TYPE_4gb_segments, 0, 0, 0), 0);
        check_rc(HYPERCALL(__HYPERVISOR_get_debugreg, 7, 0, 0, 0, 0),
                 0x400);                /* DR7's default */
        check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iopl,
                           &iopl, 0, 0, 0), 0);
        check_rc(HYPERCALL(__HYPERVISOR_mmuext_op, &flushes[0],
                           ARRAY_SIZE(flushes), 0, DOMID_SELF, 0), 0);
        lock_free_multicall(calls, false);
        check_rc(hypercall_multicall(calls, ARRAY_SIZE(calls)), 0);
        check_rc(TRY("wbinvd"), 0);
        check_rc(exinfo_vector(TRY("cli")), X86_EXC_GP);
        check_rc(calls[0].result >> 16, 4);
        check_rc(calls[1].result, 0);
        check_rc(calls[2].result, 0);
#ifdef __x86_64__
        check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_USER,
                           0, 0, 0, 0), 0);
#endif
    }
#ifdef __x86_64__
    check_rc(user_register_callback(CALLBACKTYPE_syscall,
                                    (unsigned long)user_syscall_entry, 0),
             0);
    check_rc(exec_user(user_syscalls, ROUNDS), 0);
#endif
    taken = domain_lock_count() - before;
    check_rc(evtchn_close(unbound), 0);
    check_rc(evtchn_close(ipi), 0);
    printf("domain_lock taken %lu times in %u rounds of lock-free calls\n",
           (unsigned long)taken, ROUNDS);
    if ( taken > SLACK )
        test_fail("lock-free paths took the domain lock %lu times",
                  (unsigned long)taken);

    audit = strstr(cmdline, "mm-audit") != NULL;
    before = domain_lock_count();
    for ( i = 0; i < ROUNDS; i++ )
    {
        check_rc(unpin_table(l1), 0);
        check_rc(pin_table(1, l1), 0);
    }
    taken = domain_lock_count() - before;
    if ( taken < (audit ? 2 * ROUNDS : 0) ||
         taken > (audit ? 2 * ROUNDS : 0) + SLACK )
        test_fail("%u unpins and pins took the domain lock %lu times%s",
                  ROUNDS, (unsigned long)taken, audit ? " (mm-audit)" : "");
    before = domain_lock_count();
    for ( i = 0; i < ROUNDS; i++ )
        check_rc(hypercall_update_descriptor((uint64_t)desc_frame << 12, 0),
                 0);
    taken = domain_lock_count() - before;
    if ( taken < (audit ? ROUNDS : 0) ||
         taken > (audit ? ROUNDS : 0) + SLACK )
        test_fail("%u update_descriptors took the domain lock %lu times%s",
                  ROUNDS, (unsigned long)taken, audit ? " (mm-audit)" : "");

    /* A hypercall that needs it (Xen's set_gdt too) counts once each. */
    before = domain_lock_count();
    for ( i = 0; i < ROUNDS; i++ )
        check_rc(HYPERCALL(__HYPERVISOR_set_gdt, 0, 0, 0, 0, 0), 0);
    taken = domain_lock_count() - before;
    if ( taken < ROUNDS || taken > ROUNDS + SLACK )
        test_fail("%u set_gdts took the domain lock %lu times",
                  ROUNDS, (unsigned long)taken);
    before = domain_lock_count();
    for ( i = 0; i < ROUNDS; i++ )
        check_rc(HYPERCALL(__HYPERVISOR_mmuext_op, &mixed[0], ARRAY_SIZE(mixed),
                           0, DOMID_SELF, 0), 0);
    taken = domain_lock_count() - before;
    if ( taken < (audit ? ROUNDS : 0) ||
         taken > (audit ? ROUNDS : 0) + SLACK )
        test_fail("%u mmuext_op batches with a SET_LDT took the domain lock "
                  "%lu times%s", ROUNDS, (unsigned long)taken,
                  audit ? " (mm-audit)" : "");
    before = domain_lock_count();
    for ( i = 0; i < ROUNDS; i++ )
    {
        lock_free_multicall(calls, true);
        check_rc(hypercall_multicall(calls, ARRAY_SIZE(calls)), 0);
        check_rc(calls[2].result, 0);
    }
    taken = domain_lock_count() - before;
    if ( taken < ROUNDS || taken > ROUNDS + SLACK )
        test_fail("%u multicalls with a set_gdt took the domain lock %lu "
                  "times", ROUNDS, (unsigned long)taken);
}

static uint64_t lock_count(const char *name)
{
    query_all();
    return find(name, LOCKPROF_TYPE_PERDOM)->lock_cnt;
}

/*
 * Grant ops take Xen's grant locks, not the domain lock (but for the
 * audit after each, with mm-audit): a map reads the table's lock once
 * and takes a maptrack handle, an unmap reads it twice (the PTE, then
 * the pin after the flush) and gives the handle back.
 */
static void check_grant_locks(void)
{
    static uint8_t win[PAGE_SIZE] __gnt_page;
    static char cmdline[1024];
    struct gnttab_map_grant_ref op;
    uint64_t dl, gt, mt;
    unsigned int i, audit;

    check_rc(hypercall_xen_version(XENVER_commandline, cmdline), 0);
    audit = strstr(cmdline, "mm-audit") != NULL;
    gnt_setup(1);
    gnt_grant(1, 10, GNT_SELF_ID, alloc_frame(), GTF_readonly);
    dl = lock_count("domain_lock");
    gt = lock_count("gt->lock");
    mt = lock_count("gt->maptrack_lock");
    for ( i = 0; i < ROUNDS; i++ )
    {
        check_rc(gnt_map1(&op, GNT_SELF_ID, 10,
                          GNTMAP_host_map | GNTMAP_readonly,
                          (unsigned long)win), GNTST_okay);
        check_rc(gnt_unmap1((unsigned long)win, op.handle, 0), GNTST_okay);
    }
    dl = lock_count("domain_lock") - dl;
    gt = lock_count("gt->lock") - gt;
    mt = lock_count("gt->maptrack_lock") - mt;
    remap_initial((unsigned long)win);
    printf("%u grant maps and unmaps: gt->lock %lu, maptrack_lock %lu, "
           "domain_lock %lu\n", ROUNDS, (unsigned long)gt,
           (unsigned long)mt, (unsigned long)dl);
    if ( dl < audit * 2 * ROUNDS || dl > audit * 2 * ROUNDS + SLACK )
        test_fail("grant ops took the domain lock %lu times%s",
                  (unsigned long)dl, audit ? " (mm-audit)" : "");
    if ( gt < 3 * ROUNDS || gt > 3 * ROUNDS + SLACK )
        test_fail("%u maps and unmaps read gt->lock %lu times", ROUNDS,
                  (unsigned long)gt);
    if ( mt < 2 * ROUNDS || mt > 2 * ROUNDS + SLACK )
        test_fail("%u maps and unmaps took maptrack_lock %lu times", ROUNDS,
                  (unsigned long)mt);
}

/* Past max_elem the locks are counted, not written. */
static void check_sizes(void)
{
    unsigned int n = query_all();

    memset(data, 0x5a, sizeof(data));
    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, 0, NULL), 0);
    check_rc(op.u.lockprof_op.nr_elem, n);
    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, 0, BAD_XEN), 0);
    check_rc(op.u.lockprof_op.nr_elem, n);
    check_rc(data[0].name[0], 0x5a);

    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, 1, data), 0);
    check_rc(op.u.lockprof_op.nr_elem, n);
    if ( !data[0].name[0] || data[1].name[0] != 0x5a )
        test_fail("max_elem 1 wrote %s element(s)",
                  data[0].name[0] ? "two" : "no");

    /* A huge max_elem is fine: only the locks there are get written. */
    memset(data, 0x5a, sizeof(data));
    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, ~0u, data), 0);
    check_rc(op.u.lockprof_op.nr_elem, n);
    check_rc(data[n].name[0], 0x5a);
}

/* A buffer the guest can't write: -EFAULT, and no copy back. */
static void check_bad_buffers(void)
{
    void *const bad[] = {
        BAD_UNMAPPED, BAD_NONCANONICAL, BAD_XEN,
#ifdef __x86_64__
        (void *)((1UL << 47) - 8),                  /* runs past 2^47 */
#else
        (void *)-8UL,                               /* runs past 4 GiB */
#endif
        (void *)(HYPERVISOR_VIRT_START - sizeof(data[0]) / 2),
    };
    struct xen_sysctl_lockprof_data *last;
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
    {
        check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, 1, bad[i]),
                 -XEN_EFAULT);
        check_rc(op.u.lockprof_op.nr_elem, 0xdead);
    }

    /* One element fits before the end of the mapping, the second not. */
    last = (void *)(initial_mapping_end() - sizeof(*last));
    memset(last, 0x5a, sizeof(*last));
    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_query, 1000, last), -XEN_EFAULT);
    check_rc(op.u.lockprof_op.nr_elem, 0xdead);
    if ( last->name[0] == 0x5a )
        test_fail("the element that fitted was not written");

    /* The argument itself unreadable. */
    check_rc(HYPERCALL(__HYPERVISOR_sysctl, BAD_UNMAPPED, 0, 0, 0, 0),
             -XEN_EFAULT);
}

static void check_refusals(void)
{
    static const uint32_t cmds[] = { 0, 3, 0x80000000u, ~0u };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(cmds); i++ )
        check_rc(lockprof(cmds[i], MAX_LOCKS, data), -XEN_EINVAL);
    lockprof(XEN_SYSCTL_LOCKPROF_query, MAX_LOCKS, data);
    op.interface_version--;
    check_rc(HYPERCALL(__HYPERVISOR_sysctl, &op, 0, 0, 0, 0), -XEN_EACCES);
    /* Every other sysctl is still the control domain's. */
    op.interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    op.cmd = XEN_SYSCTL_physinfo;
    check_rc(HYPERCALL(__HYPERVISOR_sysctl, &op, 0, 0, 0, 0), -XEN_EPERM);
}

static void check_reset(void)
{
    uint64_t time_before;

    query_all();
    time_before = op.u.lockprof_op.time;
    check_rc(lockprof(XEN_SYSCTL_LOCKPROF_reset, 0, NULL), 0);
    query_all();
    check_rc(find("event_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt, 0);
    check_rc(find("page_alloc_lock", LOCKPROF_TYPE_PERDOM)->lock_cnt, 0);
    check_rc(find("page_alloc_lock", LOCKPROF_TYPE_PERDOM)->lock_time, 0);
    /* The reset's own sysctl_lock release came after the reset. */
    check_rc(find("sysctl_lock", LOCKPROF_TYPE_GLOBAL)->lock_cnt, 1);
    if ( op.u.lockprof_op.time >= time_before )
        test_fail("time since reset %lu, before it %lu",
                  (unsigned long)op.u.lockprof_op.time,
                  (unsigned long)time_before);
}

/*
 * The disk (expect: disk virtio 1M) and the NIC (net user): the backends'
 * locks in the domain's list by the device's name, one a ring of as many
 * as the backend offers and no more, the drivers' queue locks in the
 * global list; reads through xvda's ring count on its ring's lock and on
 * the device queue's.
 */
static void check_device_locks(void)
{
    static uint8_t ring_page[PAGE_SIZE] __gnt_page;
    static uint8_t buf[PAGE_SIZE] __gnt_page;
    static struct blkfront xvda = {
        .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
        .sectors = 2048, .ref_ring = 30, .ring_page = ring_page,
    };
    struct blkif_request_segment seg = blk_seg(9, 0, 7);
    unsigned int i, nr_rings;
    uint64_t ring0, vq0;
    char name[40];

    if ( !blk_test_init() )
        return;
    nr_rings = strtoul(blk_xs_read(blk_be(&xvda, "multi-queue-max-queues")),
                       NULL, 10);
    query_all();
    find("xvda->lock", LOCKPROF_TYPE_PERDOM);
    for ( i = 0; i < nr_rings; i++ )
    {
        snprintf(name, sizeof(name), "xvda->ring_lock[%u]", i);
        find(name, LOCKPROF_TYPE_PERDOM);
    }
    snprintf(name, sizeof(name), "xvda->ring_lock[%u]", nr_rings);
    if ( !nr_rings || lockprof_find(name, LOCKPROF_TYPE_PERDOM, NULL) )
        test_fail("%u rings offered, %s listed", nr_rings, name);
    find("vif1.0->lock", LOCKPROF_TYPE_PERDOM);
    find("vif1.0->queue_lock[0]", LOCKPROF_TYPE_PERDOM);
    find("virtio-net0->q[0].rx_lock", LOCKPROF_TYPE_GLOBAL);
    find("virtio-net0->q[0].tx_lock", LOCKPROF_TYPE_GLOBAL);
    ring0 = find("xvda->ring_lock[0]", LOCKPROF_TYPE_PERDOM)->lock_cnt;
    vq0 = find("virtio-blk0->q[0].lock", LOCKPROF_TYPE_GLOBAL)->lock_cnt;

    blk_wait_be_state(&xvda, XenbusStateInitWait);
    blk_connect(&xvda);
    blk_grant(9, buf, 0);
    for ( i = 0; i < 8; i++ )
    {
        check_rc(blk_rq(&xvda, BLKIF_OP_READ, 8 * i, 1, &seg),
                 BLKIF_RSP_OKAY);
        if ( !blk_holds(buf, 0, 8 * i) )
            test_fail("sector %u read wrong", 8 * i);
    }
    query_all();
    ring0 = find("xvda->ring_lock[0]", LOCKPROF_TYPE_PERDOM)->lock_cnt - ring0;
    vq0 = find("virtio-blk0->q[0].lock", LOCKPROF_TYPE_GLOBAL)->lock_cnt - vq0;
    printf("%u rings; 8 reads: xvda->ring_lock[0] %lu, "
           "virtio-blk0->q[0].lock %lu\n", nr_rings, (unsigned long)ring0,
           (unsigned long)vq0);
    /* Each read taken and answered under the ring's lock, queued on q[0]. */
    if ( ring0 < 8 )
        test_fail("8 reads took xvda->ring_lock[0] %lu times",
                  (unsigned long)ring0);
    if ( vq0 < 8 )
        test_fail("8 reads took virtio-blk0->q[0].lock %lu times",
                  (unsigned long)vq0);
}

void test_main(void)
{
    check_query();
    check_event_lock();
    if ( user_init() )
        return test_error("user_init failed");
    check_lock_free();
    check_grant_locks();
    check_sizes();
    check_bad_buffers();
    check_refusals();
    check_reset();
    check_device_locks();
    test_success();
}
