/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlb-churn [-w] MS: the flush_lock benchmark's Linux workload
 * (tests/bench/flush-lock.sh), run by /init for pvshim_tlb=MS.  For MS
 * milliseconds, on every online CPU at once:
 *
 *   - a process pinned to the CPU forks and execs /bin/exit0 in a loop,
 *     waiting for each child (a new mm, its page tables pinned and
 *     unpinned, the parent's pages write-protected for the fork);
 *   - a thread of one shared process, pinned to the CPU, maps a region
 *     of REGION_PAGES fresh pages, writes each, then unmaps one page and
 *     then the rest.  The process runs on every CPU, so each munmap must
 *     shoot the range down on the others: Linux PV asks the hypervisor
 *     with MMUEXT_INVLPG_MULTI for the single page and
 *     MMUEXT_TLB_FLUSH_MULTI for the rest (xen_flush_tlb_multi()).
 *
 * And it checks that those shootdowns happen: each thread also owns a
 * page-sized slot, a read-only shared mapping of a memfd page, which it
 * moves each cycle (mmap MAP_FIXED, a shootdown of the old page) to the
 * next of its SLOT_PAGES pages, after writing the cycle's number there
 * through a second mapping; then it publishes the number.  Its neighbour
 * (the next CPU's thread) reads the published number, then the slot, in
 * a loop: a slot behind the number it published is a translation the
 * move should have shot down, a stale TLB entry.  The page a stale entry
 * points to keeps its old number until SLOT_PAGES cycles later.
 *
 * It prints "tlb-churn: ready" when every worker waits, starts them,
 * prints "tlb-churn: start", and when the time is up and all have
 * stopped, "tlb-churn: done MS ms, N CPUs, E fork/exec (E/s), U unmap
 * cycles (U/s), S stale reads" and each CPU's counts.  With -w it reads
 * a line from standard input before starting and another after "done"
 * (the bench resets and reads the shim's lock profile then; end of
 * input does not wait).  Exit status 1 if a mapping, a fork or an exec
 * failed, or a stale read was seen.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REGION_PAGES    16
#define SLOT_PAGES      4       /* each thread's slot pages, used in turn */
#define SLOT_READS      65536   /* the neighbour's slot's reads a cycle */
#define PAGE            4096UL
#define MAX_CPUS        256
#define EXIT0           "/bin/exit0"

/* One counter a cache line, so that CPUs don't share the line they write. */
struct count {
    volatile unsigned long n;
    char pad[64 - sizeof(unsigned long)];
};

/* Shared with the fork/exec processes (MAP_SHARED, made before fork). */
static struct shared {
    volatile int stop, failed;
    struct count execs[MAX_CPUS], unmaps[MAX_CPUS];
} *sh;

static int go_pipe[2];
static unsigned long ncpus;

/*
 * The slots (ncpus pages) and, writable, the memfd's pages behind them
 * (SLOT_PAGES a CPU); the numbers each thread published, and the stale
 * reads each saw.  The threads share these; the processes don't.
 */
static int slot_fd;
static char *slots;
static volatile unsigned long *slot_pages;
static struct count published[MAX_CPUS], stale[MAX_CPUS];

static void pin(unsigned int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if ( sched_setaffinity(0, sizeof(set), &set) )
        perror("tlb-churn: sched_setaffinity");
}

/* Every worker blocks here until the main thread closes the pipe. */
static void wait_go(void)
{
    char c;

    while ( read(go_pipe[0], &c, 1) > 0 )
        ;
}

static void fork_exec_loop(unsigned int cpu)
{
    char *argv[] = { EXIT0, NULL }, *envp[] = { NULL };
    int status;
    pid_t pid;

    pin(cpu);
    wait_go();
    while ( !sh->stop )
    {
        pid = fork();
        if ( pid == 0 )
        {
            execve(EXIT0, argv, envp);
            _exit(127);
        }
        if ( pid < 0 || waitpid(pid, &status, 0) != pid ||
             !WIFEXITED(status) || WEXITSTATUS(status) )
        {
            sh->failed = 1;
            break;
        }
        sh->execs[cpu].n++;
    }
    _exit(0);
}

/* Point @cpu's slot at its page for cycle @gen, which holds @gen. */
static int move_slot(unsigned int cpu, unsigned long gen)
{
    unsigned long page = cpu * SLOT_PAGES + gen % SLOT_PAGES;

    slot_pages[page * (PAGE / sizeof(long))] = gen;
    return mmap(slots + cpu * PAGE, PAGE, PROT_READ, MAP_SHARED | MAP_FIXED,
                slot_fd, page * PAGE) == MAP_FAILED;
}

/* Read @cpu's slot: never behind what it published before the read. */
static unsigned long check_slot(unsigned int cpu)
{
    const volatile unsigned long *slot = (void *)(slots + cpu * PAGE);
    unsigned long i, gen, bad = 0;

    for ( i = 0; i < SLOT_READS; i++ )
    {
        gen = __atomic_load_n(&published[cpu].n, __ATOMIC_ACQUIRE);
        bad += *slot < gen;
    }
    return bad;
}

static void *unmap_loop(void *arg)
{
    unsigned int cpu = (unsigned long)arg;
    size_t size = REGION_PAGES * PAGE, off;
    unsigned long gen = 0;
    char *p;

    pin(cpu);
    wait_go();
    while ( !sh->stop )
    {
        if ( move_slot(cpu, ++gen) )
            break;
        __atomic_store_n(&published[cpu].n, gen, __ATOMIC_RELEASE);
        p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if ( p == MAP_FAILED )
            break;
        for ( off = 0; off < size; off += PAGE )
            ((volatile char *)p)[off] = 1;
        stale[cpu].n += check_slot((cpu + 1) % ncpus);
        /* One page (an INVLPG_MULTI), then fifteen (a TLB_FLUSH_MULTI). */
        munmap(p, PAGE);
        munmap(p + PAGE, size - PAGE);
        sh->unmaps[cpu].n++;
    }
    if ( !sh->stop )
        sh->failed = 1;
    return NULL;
}

/* The slots, each at its page for cycle 0 (which holds 0). */
static int make_slots(void)
{
    size_t pages = ncpus * SLOT_PAGES;
    unsigned int cpu;

    slot_fd = memfd_create("tlb-churn", 0);
    if ( slot_fd < 0 || ftruncate(slot_fd, pages * PAGE) )
        return -1;
    slot_pages = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
                      MAP_SHARED, slot_fd, 0);
    slots = mmap(NULL, ncpus * PAGE, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if ( slot_pages == MAP_FAILED || slots == MAP_FAILED )
        return -1;
    for ( cpu = 0; cpu < ncpus; cpu++ )
        if ( move_slot(cpu, 0) )
            return -1;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* With -w: a line from standard input (the bench's go-ahead). */
static void handshake(int wait)
{
    char line[64];

    if ( wait )
        (void)!fgets(line, sizeof(line), stdin);
}

int main(int argc, char **argv)
{
    int wait = argc > 1 && !strcmp(argv[1], "-w");
    unsigned long ms = argc > 1 + wait ? strtoul(argv[1 + wait], NULL, 0)
                                       : 1000;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned long e = 0, u = 0, st = 0, i;
    pthread_t threads[MAX_CPUS];
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
    pid_t pids[MAX_CPUS];
    double t0, t;

    ncpus = online < 1 ? 1 : online > MAX_CPUS ? MAX_CPUS : online;
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if ( sh == MAP_FAILED || pipe(go_pipe) || make_slots() )
    {
        perror("tlb-churn");
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    /*
     * The fork/exec processes first: a child of a threaded process would
     * get only the forking thread, and fork from a bigger mm.
     */
    for ( i = 0; i < ncpus; i++ )
    {
        pids[i] = fork();
        if ( pids[i] == 0 )
        {
            close(go_pipe[1]);
            fork_exec_loop(i);
        }
        if ( pids[i] < 0 )
        {
            perror("tlb-churn: fork");
            return 1;
        }
    }
    for ( i = 0; i < ncpus; i++ )
        if ( pthread_create(&threads[i], NULL, unmap_loop, (void *)i) )
        {
            fprintf(stderr, "tlb-churn: pthread_create failed\n");
            return 1;
        }

    printf("tlb-churn: ready, %lu CPUs\n", ncpus);
    handshake(wait);
    printf("tlb-churn: start\n");
    t0 = now_s();
    close(go_pipe[1]);
    nanosleep(&ts, NULL);
    sh->stop = 1;
    t = now_s() - t0;
    for ( i = 0; i < ncpus; i++ )
    {
        pthread_join(threads[i], NULL);
        waitpid(pids[i], NULL, 0);
        e += sh->execs[i].n;
        u += sh->unmaps[i].n;
        st += stale[i].n;
    }

    printf("tlb-churn: done %.0f ms, %lu CPUs, %lu fork/exec (%.0f/s), "
           "%lu unmap cycles (%.0f/s), %lu stale reads%s\n", t * 1000,
           ncpus, e, e / t, u, u / t, st, sh->failed ? ", FAILED" : "");
    printf("tlb-churn: fork/exec per CPU:");
    for ( i = 0; i < ncpus; i++ )
        printf(" %lu", sh->execs[i].n);
    printf("\ntlb-churn: unmap cycles per CPU:");
    for ( i = 0; i < ncpus; i++ )
        printf(" %lu", sh->unmaps[i].n);
    printf("\n");
    handshake(wait);
    return sh->failed || st;
}
