/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Several vCPUs in one test kernel (tests/guests/lib/smp.c): bringing
 * them up on the library's stacks, which one is running, barriers that
 * say who is late, and events and NMIs taken on every vCPU, each on its
 * own vcpu_info (2-level) or control block (FIFO), counted per port.
 */
#ifndef GUEST_SMP_H
#define GUEST_SMP_H

#include "guest.h"
#include "event.h"

#define SMP_MAX_VCPUS   8

/* How many vCPUs the domain has (VCPUOP_is_up not -ENOENT), at most @max. */
unsigned int smp_nr_vcpus(unsigned int max);

/*
 * Start vCPU @id (1 to SMP_MAX_VCPUS - 1) at @fn(@id), on a stack of the
 * library's, with its exception handlers and events masked; it goes
 * down (VCPUOP_down) if @fn returns.  0 or the VCPUOP's error.  vCPU 0
 * starts them, one at a time.
 */
long smp_start_vcpu(unsigned int id, void (*fn)(unsigned int id));

/* The running vCPU, by the stack it is on (vCPU 0's is the boot stack). */
unsigned int smp_id(void);

/* System time (ns) from the running vCPU's own vcpu_time_info. */
uint64_t smp_time(void);

/* Atomics on shared counters and flags, as every test needs them. */
#define LOAD(x)         __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v)     __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define ADD(x, v)       __atomic_add_fetch(&(x), (v), __ATOMIC_SEQ_CST)

/*
 * A barrier for @n vCPUs that names the late ones: smp_barrier_wait()
 * returns true once all @n arrived, or false after @timeout_ns of system
 * time with *@late the bitmap of those that had not (the barrier is
 * then broken: the test should end).  Waiting vCPUs spin a moment, so
 * that they leave together (to race), then sleep in short SCHEDOP_polls,
 * so those at work get the host's CPUs.  Zero it to start.
 */
struct smp_barrier {
    unsigned int gen, count;
    unsigned int at[SMP_MAX_VCPUS];     /* the generation each reached */
};
bool smp_barrier_wait(struct smp_barrier *b, unsigned int n,
                      uint64_t timeout_ns, unsigned long *late);

/* Sleep for about @ns (SCHEDOP_poll on no port). */
void smp_sleep(uint64_t ns);

/*
 * Spin (cpu_relax()) until another vCPU has brought the counter @p to at
 * least @want; after @timeout_ns of system time the test fails, naming
 * @what (the other vCPU's step it waited for), and gives up.
 */
void smp_wait_count(const volatile unsigned int *p, unsigned int want,
                    uint64_t timeout_ns, const char *what);
#define SMP_WAIT_NS     20000000000ULL  /* 20 s: no answer is coming */

/*
 * Events on every vCPU: after event_init() on vCPU 0, each vCPU calls
 * smp_event_init() itself (callbacks are per vCPU): its event callback
 * and NMI callback become the library's SMP ones, which acknowledge
 * what is pending for it and count every port they take off
 * (smp_port_events[port], atomically: any vCPU may take any port) and
 * every NMI (smp_nmis[id]).  Events stay masked until
 * smp_events_enable().
 */
#define SMP_EVENT_PORTS     1024        /* one FIFO event array page */
extern volatile uint32_t smp_port_events[SMP_EVENT_PORTS];
extern volatile unsigned int smp_upcalls[SMP_MAX_VCPUS];
extern volatile unsigned int smp_nmis[SMP_MAX_VCPUS];
/* Ports the callback found linked beyond SMP_EVENT_PORTS (never, sanely). */
extern volatile unsigned int smp_bad_ports;
long smp_event_init(void);
/* Unmask (and take what is pending at once) or mask the running vCPU's. */
void smp_events_enable(void);
void smp_events_disable(void);

/*
 * The FIFO ABI for vCPUs 0 to @nr - 1 (fifo_init(), then a control
 * block for each other vCPU), consumed as Linux's events_fifo.c does;
 * called on vCPU 0 while the others take no events.
 */
long smp_fifo_init(unsigned int nr);

#endif /* GUEST_SMP_H */
