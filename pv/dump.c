/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The debug keys that look at the guest: 'q' the domain and its vCPUs
 * (Xen's dump_domains()), 'r' the run queues (Xen's dump_runq() with the
 * null scheduler: one vCPU pinned on each CPU), 'e' its event channels.
 */
#include "shim/console.h"
#include "shim/keyhandler.h"
#include "shim/timer.h"
#include "pv/pv.h"
#include "pv/domain.h"
#include "pv/event/event.h"

#define PV_DOMID    1
#define VPF_blocked 1                   /* Xen's pause_flags bit 0 */

/* "0" or "0-N", as Xen's %*pbl prints a mask of the first @n CPUs. */
static void cpus_print(char *buf, size_t len, unsigned int n)
{
    if ( n > 1 )
        snprintf(buf, len, "0-%u", n - 1);
    else
        snprintf(buf, len, "0");
}

static void dump_vcpu(const struct vcpu *v)
{
    /* A vCPU past the legacy 32 has no vcpu_info until it registers one. */
    uint8_t pend = v->vcpu_info ? v->vcpu_info->evtchn_upcall_pending : 0;
    uint8_t mask = v->vcpu_info ? v->vcpu_info->evtchn_upcall_mask : 1;

    printk("    VCPU%u: CPU%u [has=%c] poll=%d upcall_pend=%02x "
           "upcall_mask=%02x dirty_cpu=%u\n", v->id, v->id,
           v->blocked ? 'F' : 'T', v->polling ? v->poll_evtchn : 0,
           pend, mask, v->id);
    printk("    pause_count=0 pause_flags=%x\n",
           v->blocked ? VPF_blocked : 0);
    printk("    %s mode, event callback %016lx, failsafe %016lx, "
           "syscall %016lx\n", v->kernel_mode ? "kernel" : "user",
           v->event_callback_eip, v->failsafe_callback_eip,
           v->syscall_callback_eip);
    if ( !v->periodic_period )
        printk("No periodic timer\n");
    else
        printk("%lu Hz periodic timer (period %lu ms)\n",
               (unsigned long)(1000000000 / v->periodic_period),
               (unsigned long)(v->periodic_period / 1000000));
}

static void dump_domains(unsigned char key)
{
    struct domain *d = &dom;
    static const uint8_t h[16];         /* no toolstack gave a handle */
    unsigned int i;

    printk("'%c' pressed -> dumping domain info (now = %ld)\n", key,
           (long)NOW());
    printk("General information for domain %u:\n", PV_DOMID);
    printk("    refcnt=1 dying=%d pause_count=0\n", d->shutting_down);
    printk("    nr_pages=%lu xenheap_pages=0 shared_pages=0 paged_pages=0 "
           "dirty_cpus={0} max_pages=%lu\n", d->tot_pages, d->max_pages);
    printk("    handle=%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
           "%02x%02x%02x%02x%02x%02x vm_assist=%08lx\n", h[0], h[1], h[2],
           h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12],
           h[13], h[14], h[15], d->vm_assist);
    for ( i = 0; i < NR_DOMAIN_WATCHDOG_TIMERS; i++ )
        if ( ACCESS_ONCE(d->watchdog_inuse) & (1u << i) )
            printk("    watchdog %u expires in %d seconds\n", i,
                   (int)((d->watchdog_timer[i].expires - NOW()) >> 30));
    printk("VCPU information and callbacks for domain %u:\n", PV_DOMID);
    for ( i = 0; i < d->max_vcpus; i++ )
    {
        printk("  UNIT%u affinities: hard={%u} soft={%u}\n", i, i, i);
        dump_vcpu(&d->vcpu[i]);
    }
    for ( i = 0; i < d->max_vcpus; i++ )
    {
        printk("Notifying guest %d:%u (virq %d, port %d)\n", PV_DOMID, i,
               VIRQ_DEBUG, d->vcpu[i].virq_to_evtchn[VIRQ_DEBUG]);
        send_guest_vcpu_virq(&d->vcpu[i], VIRQ_DEBUG);
    }
}

static void dump_runq(unsigned char key)
{
    unsigned int cpu, n = keyhandler_nr_cpus();
    char cpus[16];

    cpus_print(cpus, sizeof(cpus), n);
    printk("sched_smt_power_savings: disabled\n");
    printk("NOW=%ld\n", (long)NOW());
    printk("Online Cpus: %s\n", cpus);
    printk("Cpupool 0:\n");
    printk("Cpus: %s\n", cpus);
    printk("Scheduling granularity: cpu, 1 CPU per sched-resource\n");
    printk("Scheduler: null Scheduler (null)\n");
    printk("\tcpus_free = \n");
    printk("Domain info:\n");
    printk("\tDomain: %d\n", PV_DOMID);
    for ( cpu = 0; cpu < dom.max_vcpus; cpu++ )
        printk("\t%3u: [%d.%u] pcpu=%u\n", cpu + 1, PV_DOMID, cpu, cpu);
    printk("Waitqueue: \n");
    printk("CPUs info:\n");
    for ( cpu = 0; cpu < n; cpu++ )
    {
        if ( cpu >= dom.max_vcpus )
        {
            printk("CPU[%02u] sibling={%u}, core={%u}\n", cpu, cpu, cpu);
            continue;
        }
        printk("CPU[%02u] sibling={%u}, core={%u}, unit=d%dv%u\n", cpu, cpu,
               cpu, PV_DOMID, cpu);
        if ( !dom.vcpu[cpu].blocked )
            printk("\trun: [%d.%u] pcpu=%u\n", PV_DOMID, cpu, cpu);
    }
}

static void dump_evtchn_info(unsigned char key)
{
    pv_dump_evtchn_info(key);           /* a direct call: no GOT entry */
}

void pv_keyhandler_init(void)
{
    register_keyhandler('e', dump_evtchn_info, "dump evtchn info", true);
    register_keyhandler('q', dump_domains,
                        "dump domain (and guest debug) info", true);
    register_keyhandler('r', dump_runq, "dump run queues", true);
}
