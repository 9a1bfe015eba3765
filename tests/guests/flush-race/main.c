/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flushes that reach other vCPUs, racing each other: the shim runs the
 * guest's MMUEXT_*_ALL/_MULTI and UVMF_ALL/bitmap flushes without its
 * domain lock, so several meet at flush_lock (or pass each other, with
 * no-flush-lock), while its own safety flushes (a frame that was
 * writable becoming a page table or descriptor frame) stay under the
 * lock and trust the TLB-flush clock.  Three phases, vCPU 0 leading:
 *
 * 1. Stale translations.  Readers (vCPU 1; from 5 vCPUs, all but vCPU 0
 *    and the two helpers) loop reading a generation g, then a page X,
 *    keeping X hot in their TLBs.  For step k vCPU 0 writes k into frame
 *    k % 3, points X's entry at that frame, flushes with one of the
 *    eight remote methods, publishes g = k and waits for every reader's
 *    first reading of X under g = k: it must be k; less is a stale
 *    translation.  (Three frames, not two, with eight methods: after a
 *    flush that never came, a stale entry is right again one step in
 *    three, never always for the same method.)  The first steps change
 *    the entry with no flush at all, which a reader must see stale (TCG
 *    keeps a translation until something flushes it): the check can
 *    fail.
 * 2. The same while helpers (from 3 vCPUs) storm: pin and unpin L1s
 *    (each pin needs the shim's own flush: the frame's writable mapping
 *    just went), mmu_update their own tables, update_va_mapping with
 *    UVMF_ALL, and MMUEXT_TLB_FLUSH_ALL in a loop (from 4 vCPUs one
 *    helper does only that).  Every hypercall must succeed, as on Xen.
 * 3. The shim's safety.  vCPU 1 writes, alternately a bad entry (a
 *    writable self-mapping, or a TSS descriptor) and 0, into frame F
 *    through a writable mapping; vCPU 0 removes that mapping with
 *    mmu_update and no flush and at once pins F as an L1 (every fourth
 *    round: loads it as its GDT) while the helpers storm and flush.  The
 *    pin succeeds (F held 0) or is refused (F held the bad entry); after
 *    either, vCPU 1 must fault before landing another write, and a
 *    pinned F must still read 0 (through a read-only mapping).  With
 *    mm-audit, a bad entry in a validated table panics the shim too.
 *    Every fourth round (the second of four) the drop and the pin are
 *    the tail of one multicall that begins with set_gdt, which holds the
 *    shim's domain lock to the multicall's end, and vCPU 1 calls set_gdt
 *    after each write: it waits for that lock in the shim, halted, when
 *    its flush comes due.  A CPU halted in the shim owes the flush and
 *    must do it as it wakes (arch/x86/flush.c); without that, vCPU 1's
 *    next write lands in the pinned F (tried: this phase fails).
 *
 * Command line: steps=N (phase 1's steps, default 1600), storm_steps=N
 * (phase 2's, default 160), rounds=N (phase 3's, default 100), vcpus=N
 * (default: all, at most 8).
 */
#include "guest.h"
#include "event.h"
#include "fuzz.h"
#include "mm.h"
#include "vcpu.h"
#include <xen/sched.h>

const char test_title[] = "Remote TLB flushes racing: no stale translation";

#define MAX_VCPUS       8
#define STACK_BYTES     8192
#define SAFETY_SLOT     5               /* the entry vCPU 1 writes in F */
#define SANITY_STEPS    8               /* unflushed steps, phase 1 */
#define WAIT_NS         10000000000ULL  /* a vCPU that doesn't answer */
/*
 * A phase's steps or rounds end early after this long: on a loaded host
 * (QEMU's vCPU threads waiting for CPUs) a step can take 20 times what
 * it takes on an idle one, and the run must stay within run.sh's 120 s.
 */
#define PHASE_NS        25000000000ULL
/* A present TSS descriptor: set_gdt refuses every system type but gates. */
#define BAD_DESC        0x0000890000000000UL

#define LOAD(x)         __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v)     __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

enum phase { PH_START, PH_STALE, PH_STORM, PH_SAFETY, PH_END };

enum method {
    M_NONE,                             /* the sanity check: no flush */
    M_FLUSH_ALL,
    M_INVLPG_ALL,
    M_FLUSH_MULTI,
    M_INVLPG_MULTI,
    M_UVM_ALL_INVLPG,
    M_UVM_ALL_FLUSH,
    M_UVM_MULTI_INVLPG,
    M_UVM_MULTI_FLUSH,
    NR_METHODS
};

static const char *const method_name[NR_METHODS] = {
    [M_NONE]             = "no flush",
    [M_FLUSH_ALL]        = "MMUEXT_TLB_FLUSH_ALL",
    [M_INVLPG_ALL]       = "MMUEXT_INVLPG_ALL",
    [M_FLUSH_MULTI]      = "MMUEXT_TLB_FLUSH_MULTI",
    [M_INVLPG_MULTI]     = "MMUEXT_INVLPG_MULTI",
    [M_UVM_ALL_INVLPG]   = "update_va_mapping UVMF_ALL|UVMF_INVLPG",
    [M_UVM_ALL_FLUSH]    = "update_va_mapping UVMF_ALL|UVMF_TLB_FLUSH",
    [M_UVM_MULTI_INVLPG] = "update_va_mapping bitmap|UVMF_INVLPG",
    [M_UVM_MULTI_FLUSH]  = "update_va_mapping bitmap|UVMF_TLB_FLUSH",
};

/* Pages whose entries change: each its own, away from the shared state. */
static uint8_t xpage[PAGE_SIZE] __page_aligned;         /* X */
#define NR_FRAMES       3               /* X's frames, in turn */
static uint8_t wins[NR_FRAMES][PAGE_SIZE] __page_aligned;
static uint8_t fw_page[PAGE_SIZE] __page_aligned;       /* F, writable */
static uint8_t fr_page[PAGE_SIZE] __page_aligned;       /* F, read-only */
static uint8_t storm_win[MAX_VCPUS][PAGE_SIZE] __page_aligned;

static uint8_t stacks[MAX_VCPUS][STACK_BYTES] __attribute__((aligned(16)));
static struct vcpu_guest_context ctx;

#define X               ((unsigned long)xpage)

/* What vCPU 0 set up before the others came up; read-only afterwards. */
static unsigned int nr_vcpus, nr_readers, first_helper;
static unsigned long frame[NR_FRAMES], frame_f;
static uint64_t x_l1e, fw_l1e;          /* machine addresses of entries */
static unsigned long readers_mask;      /* vCPU bitmap of the readers */
static struct {
    unsigned long table, data;          /* frames a helper pins */
    uint64_t win_l1e;                   /* its window's entry */
    unsigned long win_mfn;              /* and the window's own frame */
} storm_frames[MAX_VCPUS];

/* Coordination. */
static unsigned int phase, helpers_stop, readers_stop;
static unsigned int phase_done[MAX_VCPUS];
static uint64_t gen;                    /* phases 1-2: the step published */
static unsigned long flush_mask;        /* the bitmap methods' vCPUs */
static unsigned int stale_reports;      /* stale readings reported */

/* Per vCPU, a cache line each: a reader's answer, a helper's record. */
static struct vcpu_state {
    uint64_t ack;                       /* the last step it checked */
    uint64_t seen;                      /* what X read in that step */
    unsigned long iters;                /* helper iterations done */
    const char *fail_what;              /* first failed hypercall */
    unsigned long fail_iter;
    long fail_rc;
} __attribute__((aligned(64))) vs[MAX_VCPUS];

/* Phase 3: vCPU 1 (the writer) and vCPU 0. */
static struct {
    uint64_t round;                     /* set by vCPU 0: go */
    uint64_t dropping;                  /* the round whose mapping goes */
    uint64_t w_done;                    /* the writer has faulted */
    uint64_t landed;                    /* writes that landed */
    uint64_t bad;                       /* the bad value of this round */
    uint64_t odd_faults;                /* faults before the drop */
    uint64_t odd_ex;
    uint64_t locked;                    /* the writer waits in the shim */
} __attribute__((aligned(64))) sf;

/* A locked round's multicall: set_gdt, the padding, the drop, the pin. */
#define LOCKED_PAD      256
static multicall_entry_t locked_mc[LOCKED_PAD + 3];

#define ROUND_STOP      (~0UL)

/* --------------------------------------------------------- the helpers */

static bool is_reader(unsigned int id)
{
    return id >= 1 && id <= nr_readers;
}

/*
 * Waiting for vCPU 0 with nothing to do: sleep (SCHEDOP_poll, no port)
 * for a moment rather than spin, so the vCPUs at work get the host's
 * CPUs (QEMU runs each vCPU as a thread; the host may have fewer CPUs).
 */
static void idle_wait(void)
{
    struct sched_poll p = {
        .nr_ports = 0,
        .timeout = system_time() + 2000000,     /* 2 ms */
    };

    hypercall_sched_op(SCHEDOP_poll, &p);
}

static void note_fail(struct vcpu_state *s, const char *what, long rc)
{
    if ( !s->fail_what )
    {
        s->fail_iter = s->iters;
        s->fail_rc = rc;
        STORE(s->fail_what, what);
    }
}

/* One hypercall of a storm: it must succeed; false (noted) if not. */
#define STORM_OK(s, call) ({                                                \
    long rc_ = (call);                                                      \
                                                                            \
    if ( rc_ )                                                              \
        note_fail(s, #call, rc_);                                           \
    !rc_;                                                                   \
})

/*
 * One round of a storm: an L1 pinned, given a writable then read-only
 * entry and unpinned (both frames' types end, stamped with the clock);
 * the data frame mapped writable at this vCPU's own window (flushed
 * there on every vCPU: a remote INVLPG that may meet vCPU 0's), written,
 * unmapped without a flush and pinned (the shim must flush this CPU's
 * writable translation first) and unpinned.  All on its own frames.
 */
static bool storm_once(unsigned int id)
{
    struct vcpu_state *s = &vs[id];
    unsigned long t = storm_frames[id].table, d = storm_frames[id].data;
    uint64_t slot = ((uint64_t)t << PAGE_SHIFT) + 8 * (s->iters & 511);
    uint64_t win_l1e = storm_frames[id].win_l1e;
    unsigned long win = (unsigned long)storm_win[id];

    if ( !STORM_OK(s, pin_table(1, t)) ||
         !STORM_OK(s, mmu_update1(slot, pte_make(d, PTE_RW))) ||
         !STORM_OK(s, mmu_update1(slot, pte_make(d, PTE_RO))) ||
         !STORM_OK(s, mmu_update1(slot, 0)) ||
         !STORM_OK(s, unpin_table(t)) ||
         !STORM_OK(s, hypercall_update_va_mapping(win, pte_make(d, PTE_RW),
                                                  UVMF_ALL | UVMF_INVLPG)) )
        return false;
    poke(win, s->iters << 1);           /* not present, as an L1 entry */
    return STORM_OK(s, mmu_update1(win_l1e,
                                   pte_make(storm_frames[id].win_mfn,
                                            PTE_RW))) &&
           STORM_OK(s, pin_table(1, d)) &&
           STORM_OK(s, unpin_table(d));
}

/*
 * A helper until vCPU 0 stops it: storms (and flushes everything once a
 * round), or with @flush_only just flushes everything in a loop; every
 * fourth flush is an INVLPG_ALL of its own window instead (requests for
 * different addresses meeting on one CPU).
 */
static void helper(unsigned int id, bool flush_only)
{
    struct vcpu_state *s = &vs[id];
    unsigned long win = (unsigned long)storm_win[id];

    while ( !LOAD(helpers_stop) && !s->fail_what )
    {
        if ( !flush_only && !storm_once(id) )
            break;
        if ( !STORM_OK(s, mmuext1((s->iters & 3) == 3 ? MMUEXT_INVLPG_ALL
                                                        : MMUEXT_TLB_FLUSH_ALL,
                                  win)) )
            break;
        s->iters++;
    }
    while ( !LOAD(helpers_stop) )
        idle_wait();
}

/*
 * Phases 1-2: read g, then X; the first reading under a new g is the
 * answer to that step.  The loads are ordered (acquire, and x86 keeps
 * loads in order), so X is read after g changed.  In between, X stays
 * hot in this CPU's TLB: the next step's flush interrupts this loop.
 */
static void reader(unsigned int id)
{
    struct vcpu_state *s = &vs[id];
    uint64_t last = ~0UL, k, v;         /* answer the current g at once */

    while ( !LOAD(readers_stop) )
    {
        k = LOAD(gen);
        v = peek(X);
        if ( k != last )
        {
            s->seen = v;
            STORE(s->ack, k);
            last = k;
        }
        cpu_relax();
    }
}

/*
 * Phase 3's writer: write F through its mapping until that faults, one
 * 8-byte write as a kernel writes an entry (for a 32-bit guest through
 * %xmm0: there is no 8-byte general register to write from).
 */
static exinfo_t try_write64(volatile uint64_t *p, uint64_t val)
{
    exinfo_t ex = 0;

#ifdef __x86_64__
    asm volatile ( "1: movq %[v], (%[p]); 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : [p] "r" (p), [v] "r" (val) : "memory" );
#else
    asm volatile ( "movq %[v], %%xmm0\n\t"
                   "1: movq %%xmm0, (%[p]); 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : [p] "r" (p), [v] "m" (val) : "memory" );
#endif
    return ex;
}

static void safety_writer(void)
{
    volatile uint64_t *p = (volatile uint64_t *)fw_page + SAFETY_SLOT;
    uint64_t r = 0, n;
    exinfo_t ex;

    for ( ;; )
    {
        while ( LOAD(sf.round) == r )
            idle_wait();
        if ( (r = LOAD(sf.round)) == ROUND_STOP )
            return;
        for ( n = 0; LOAD(sf.round) == r; n++ )
        {
            ex = try_write64(p, n & 1 ? 0 : LOAD(sf.bad));
            if ( !ex )
            {
                STORE(sf.landed, sf.landed + 1);
                /* Into the shim, to wait there for vCPU 0's lock. */
                if ( LOAD(sf.locked) == r )
                    hypercall_set_gdt(NULL, 0);
                cpu_relax();
                continue;
            }
            if ( LOAD(sf.dropping) == r && exinfo_vector(ex) == X86_EXC_PF )
                break;
            /* The mapping is there: no fault may happen. */
            STORE(sf.odd_ex, ex);
            STORE(sf.odd_faults, sf.odd_faults + 1);
        }
        STORE(sf.w_done, r);
    }
}

/*
 * Who does what: vCPU 0 leads every phase; the readers (1..nr_readers)
 * read in phases 1-2 and vCPU 1 writes F in phase 3; the helpers (from
 * first_helper on, one from 3 vCPUs, two from 4) come up for phase 2
 * and storm or flush in phases 2-3.  A vCPU goes down after its last
 * phase: an idle vCPU, even halted, is one more CPU each flush waits for.
 */
static bool has_role(unsigned int id, unsigned int ph)
{
    switch ( ph )
    {
    case PH_STALE:
        return is_reader(id);
    case PH_STORM:
        return is_reader(id) || id >= first_helper;
    case PH_SAFETY:
        return id == 1 || id >= first_helper;
    default:
        return false;
    }
}

static void __attribute__((used, noreturn)) vcpu_main(unsigned long id)
{
    bool two = nr_vcpus - first_helper > 1;  /* a storm and a flusher */
    unsigned int ph;

    for ( ph = PH_STALE; ph < PH_END; ph++ )
    {
        if ( !has_role(id, ph) )
            continue;
        while ( LOAD(phase) < ph )
            idle_wait();
        if ( ph == PH_SAFETY && id == 1 )
            safety_writer();
        else if ( is_reader(id) )
            reader(id);
        else
            helper(id, two && id == (ph == PH_STORM ? first_helper + 1
                                                    : first_helper));
        STORE(phase_done[id], ph);
    }
    vcpu_op(VCPUOP_down, id, NULL);
    for ( ;; )
        ;
}

/* ------------------------------------------------------------- vCPU 0 */

static bool wait_until(const uint64_t *p, uint64_t want, const char *what)
{
    uint64_t end = system_time() + WAIT_NS;

    while ( LOAD(*p) != want )
    {
        if ( system_time() > end )
        {
            test_fail("%s: no answer (%#lx, waiting for %#lx)", what,
                      (unsigned long)LOAD(*p), (unsigned long)want);
            return false;
        }
        cpu_relax();
    }
    return true;
}

static void enter_phase(enum phase ph)
{
    STORE(phase, ph);
}

static bool end_phase(enum phase ph, const char *name)
{
    uint64_t end = system_time() + WAIT_NS;
    unsigned int i;
    bool ok = true;

    STORE(readers_stop, 1);
    STORE(helpers_stop, 1);
    for ( i = 1; i < nr_vcpus; i++ )
    {
        if ( !has_role(i, ph) )
            continue;
        while ( LOAD(phase_done[i]) != ph && system_time() < end )
            cpu_relax();
        if ( LOAD(phase_done[i]) != ph )
        {
            test_fail("%s: vCPU %u never finished", name, i);
            ok = false;
        }
        if ( vs[i].fail_what )
        {
            test_fail("%s: vCPU %u, iteration %lu: %s returned %ld", name,
                      i, vs[i].fail_iter, vs[i].fail_what, vs[i].fail_rc);
            ok = false;
        }
    }
    return ok;
}

/* Point X at @pte and flush by @m. */
static long change_x(enum method m, uint64_t pte)
{
    unsigned long bitmap = (unsigned long)&flush_mask;
    long rc;

    switch ( m )
    {
    case M_UVM_ALL_INVLPG:
        return hypercall_update_va_mapping(X, pte, UVMF_ALL | UVMF_INVLPG);
    case M_UVM_ALL_FLUSH:
        return hypercall_update_va_mapping(X, pte, UVMF_ALL | UVMF_TLB_FLUSH);
    case M_UVM_MULTI_INVLPG:
        return hypercall_update_va_mapping(X, pte, bitmap | UVMF_INVLPG);
    case M_UVM_MULTI_FLUSH:
        return hypercall_update_va_mapping(X, pte, bitmap | UVMF_TLB_FLUSH);
    default:
        break;
    }
    if ( (rc = mmu_update1(x_l1e, pte)) )
        return rc;
    switch ( m )
    {
    case M_FLUSH_ALL:
        return mmuext1(MMUEXT_TLB_FLUSH_ALL, 0);
    case M_INVLPG_ALL:
        return mmuext1(MMUEXT_INVLPG_ALL, X);
    case M_FLUSH_MULTI:
        return mmuext_flush(MMUEXT_TLB_FLUSH_MULTI, 0, &flush_mask);
    case M_INVLPG_MULTI:
        return mmuext_flush(MMUEXT_INVLPG_MULTI, X, &flush_mask);
    default:
        return 0;
    }
}

/*
 * One step: frame k % 3 gets k, X moves to it, flush, publish, and every
 * reader's first look must find k (less: an earlier step's frame, a
 * stale X).  Counts, per method, the readings and the wrong ones; false
 * when the test can't go on.
 */
static bool step(uint64_t k, enum method m, unsigned long *reads,
                 unsigned long *wrong)
{
    unsigned int i;
    char what[96];
    long rc;

    poke((unsigned long)wins[k % NR_FRAMES], k);
    /* The bitmap: the readers, and every other step this vCPU too. */
    flush_mask = readers_mask | (k & 2 ? 1 : 0);
    if ( (rc = change_x(m, pte_make(frame[k % NR_FRAMES], PTE_RO))) )
    {
        test_fail("step %lu, %s: returned %ld", (unsigned long)k,
                  method_name[m], rc);
        return false;
    }
    STORE(gen, k);
    for ( i = 1; i <= nr_readers; i++ )
    {
        snprintf(what, sizeof(what), "step %lu (%s), reader %u",
                 (unsigned long)k, method_name[m], i);
        if ( !wait_until(&vs[i].ack, k, what) )
            return false;
        reads[m]++;
        if ( vs[i].seen == k )
            continue;
        wrong[m]++;
        /* The first few; stale_check() sums up the rest. */
        if ( (m != M_NONE || vs[i].seen != k - 1) && stale_reports++ < 4 )
            test_fail("%s: X reads %lu: %s", what, (unsigned long)vs[i].seen,
                      vs[i].seen < k && vs[i].seen + NR_FRAMES > k
                          ? "stale translation" : "no step's value");
    }
    return true;
}

/*
 * Phases 1 and 2: @steps steps through the methods, from step *k on.
 * With @sanity, first some steps that change X and don't flush at all:
 * a reader must see them stale (TCG keeps a translation until something
 * flushes it), or the check proves nothing.
 */
static bool stale_check(const char *name, unsigned long steps,
                        bool sanity, uint64_t *k)
{
    unsigned long reads[NR_METHODS] = {}, wrong[NR_METHODS] = {};
    uint64_t t0 = system_time();
    unsigned long i;
    enum method m;

    /* Every reader is reading X (the answer to the current step). */
    for ( i = 1; i <= nr_readers; i++ )
        if ( !wait_until(&vs[i].ack, *k, "a reader starting") )
            return false;
    for ( i = 0; i < steps && system_time() < t0 + PHASE_NS; i++ )
    {
        /* First, unflushed steps, each followed by a flushed one. */
        if ( sanity && i < 2 * SANITY_STEPS )
            m = i & 1 ? M_FLUSH_ALL : M_NONE;
        else
            m = M_FLUSH_ALL + i % (NR_METHODS - 1);
        if ( !step(++*k, m, reads, wrong) )
            return false;
    }
    printf("flush-race: %s: %lu steps%s, %u reader(s), %lu ms\n", name, i,
           i < steps ? " (cut short: slow host)" : "", nr_readers,
           (unsigned long)((system_time() - t0) / 1000000));
    for ( m = M_FLUSH_ALL; m < NR_METHODS; m++ )
        if ( wrong[m] )
            test_fail("%s: %s: %lu of %lu readings stale", name,
                      method_name[m], wrong[m], reads[m]);
    if ( sanity )
    {
        printf("flush-race: %s: %lu of %lu readings after no flush stale\n",
               name, wrong[M_NONE], reads[M_NONE]);
        if ( !wrong[M_NONE] )
            test_fail("%s: no reader saw X stale without a flush: the check"
                      " can't fail", name);
    }
    return true;
}

/*
 * A locked round's drop and pin: one multicall whose first entry takes the
 * shim's domain lock (set_gdt, held to the multicall's end), so that the
 * writer, whose set_gdt after each write wants it too, is left waiting
 * in the shim (halted, after spin-halt-us) through the padding, when the
 * mapping goes unflushed and F is pinned.  A CPU halted in the shim owes
 * that flush instead of being sent it, and must do it as it wakes,
 * before its vCPU runs again: else its next write lands in the pinned F.
 * The pin's result.
 */
static long locked_drop_pin(void)
{
    static mmu_update_t drop;
    static mmuext_op_t pin;
    unsigned int i;
    long rc;

    drop = (mmu_update_t){ .ptr = fw_l1e, .val = 0 };
    pin = (mmuext_op_t){ .cmd = MMUEXT_PIN_L1_TABLE,
                         .arg1.mfn = frame_f };
    locked_mc[0] = (multicall_entry_t){ .op = __HYPERVISOR_set_gdt,
                                        .args = { 0, 0 } };
    for ( i = 1; i <= LOCKED_PAD; i++ )
        locked_mc[i] = (multicall_entry_t){ .op = __HYPERVISOR_xen_version,
                                            .args = { XENVER_version } };
    locked_mc[i++] = (multicall_entry_t){
        .op = __HYPERVISOR_mmu_update,
        .args = { (unsigned long)&drop, 1, 0, DOMID_SELF } };
    locked_mc[i] = (multicall_entry_t){
        .op = __HYPERVISOR_mmuext_op,
        .args = { (unsigned long)&pin, 1, 0, DOMID_SELF } };
    if ( (rc = hypercall_multicall(locked_mc, LOCKED_PAD + 3)) )
        return rc;
    check_rc((long)locked_mc[0].result, 0);
    check_rc((long)locked_mc[LOCKED_PAD + 1].result, 0);
    return (long)locked_mc[LOCKED_PAD + 2].result;
}

/* Phase 3, one round; false when the test can't go on. */
static bool safety_round(uint64_t r, unsigned long *pinned,
                         unsigned long *refused)
{
    bool gdt = (r & 3) == 3, locked = (r & 3) == 1;
    const char *what = gdt ? "set_gdt" : "MMUEXT_PIN_L1_TABLE";
    volatile uint64_t *ro = (volatile uint64_t *)fr_page + SAFETY_SLOT;
    uint64_t l, end, s1, s2;
    long rc;

    STORE(sf.bad, gdt ? BAD_DESC : pte_make(frame_f, PTE_RW));
    if ( (rc = mmu_update1(fw_l1e, pte_make(frame_f, PTE_RW))) )
    {
        test_fail("round %lu: mapping F writable: %ld", (unsigned long)r,
                  rc);
        return false;
    }
    /* Let the writer land a few (a varying number of) writes first. */
    l = LOAD(sf.landed) + 2 + r % 8;
    STORE(sf.locked, locked ? r : 0);
    STORE(sf.round, r);
    end = system_time() + WAIT_NS;
    while ( LOAD(sf.landed) < l )
    {
        if ( system_time() > end )
        {
            test_fail("round %lu: the writer never wrote", (unsigned long)r);
            return false;
        }
        cpu_relax();
    }

    STORE(sf.dropping, r);
    if ( locked )
        rc = locked_drop_pin();
    else
    {
        check_rc(mmu_update1(fw_l1e, 0), 0);    /* deliberately unflushed */
        rc = gdt ? hypercall_set_gdt(&frame_f, 512) : pin_table(1, frame_f);
    }
    l = LOAD(sf.landed);
    s1 = *ro;

    /*
     * Pinned or refused, the shim flushed before it looked at F (or knew
     * by its clock that a full flush since the drop had reached every
     * CPU): the writer's next write faults.  Write l + 1 may have been
     * under way before; one more is a write after the call returned.
     */
    end = system_time() + WAIT_NS;
    while ( LOAD(sf.w_done) != r && LOAD(sf.landed) < l + 2 &&
            system_time() < end )
        cpu_relax();
    s2 = *ro;
    if ( LOAD(sf.w_done) != r )
    {
        if ( LOAD(sf.landed) >= l + 2 )
            test_fail("round %lu: after %s (rc %ld), vCPU 1's writes still "
                      "land in F", (unsigned long)r, what, rc);
        else
            test_fail("round %lu: vCPU 1 neither wrote nor faulted",
                      (unsigned long)r);
        check_rc(mmuext1(MMUEXT_TLB_FLUSH_ALL, 0), 0);
        if ( !wait_until(&sf.w_done, r, "the writer after a flush") )
            return false;
    }

    if ( !rc )
    {
        /* What the shim validated was 0 (else it refused): still 0. */
        (*pinned)++;
        if ( s1 != 0 || s2 != 0 )
            test_fail("round %lu: after %s succeeded, F's entry %u read "
                      "%#lx, then %#lx", (unsigned long)r, what,
                      SAFETY_SLOT, (unsigned long)s1, (unsigned long)s2);
        check_rc(gdt ? hypercall_set_gdt(NULL, 0) : unpin_table(frame_f), 0);
    }
    else if ( rc == (gdt ? -XEN_EINVAL : -XEN_EBUSY) )
        (*refused)++;                   /* Xen's errors for the bad entry */
    else
        test_fail("round %lu: %s returned %ld", (unsigned long)r, what, rc);
    return true;
}

static void safety_check(unsigned long rounds)
{
    unsigned long pinned = 0, refused = 0, r;
    uint64_t t0 = system_time();
    bool ok = true;

    for ( r = 0; r < rounds && system_time() < t0 + PHASE_NS; r++ )
        if ( !(ok = safety_round(r + 1, &pinned, &refused)) )
            break;
    STORE(sf.round, ROUND_STOP);
    if ( !ok )
        return;
    if ( sf.odd_faults )
        test_fail("safety: vCPU 1 faulted %lu time(s) writing a mapped F "
                  "(vector %u)", (unsigned long)sf.odd_faults,
                  exinfo_vector(sf.odd_ex));
    printf("flush-race: safety: %lu rounds%s, %lu pinned, %lu refused, "
           "%lu writes, %lu ms\n", r,
           r < rounds ? " (cut short: slow host)" : "", pinned, refused,
           (unsigned long)sf.landed,
           (unsigned long)((system_time() - t0) / 1000000));
    /* Both ways, or the rounds didn't test what they are for. */
    if ( r >= 20 && (!pinned || !refused) )
        test_fail("safety: the pin should both succeed and be refused");
}

static long start_vcpu(unsigned int id)
{
    long rc;

    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, id,
                  stacks[id] + STACK_BYTES, true);
    shared_info->vcpu_info[id].evtchn_upcall_mask = 1;
    rc = vcpu_op(VCPUOP_initialise, id, &ctx);
    return rc ? rc : vcpu_op(VCPUOP_up, id, NULL);
}

/* Frames, mappings and roles, before any other vCPU runs. */
static void setup(void)
{
    unsigned int i;

    for ( i = 0; i < NR_FRAMES; i++ )
    {
        frame[i] = alloc_frame();
        check_rc(map_frame_at((unsigned long)wins[i], frame[i], PTE_RW), 0);
    }
    poke((unsigned long)wins[0], 0);
    x_l1e = pt_entry_maddr(X, 1);
    check_rc(map_frame_at(X, frame[0], PTE_RO), 0);

    frame_f = alloc_frame();
    fw_l1e = pt_entry_maddr((unsigned long)fw_page, 1);
    check_rc(unmap_va((unsigned long)fw_page), 0);
    check_rc(map_frame_at((unsigned long)fr_page, frame_f, PTE_RO), 0);

    for ( i = 1; i < nr_vcpus; i++ )
    {
        storm_frames[i].table = alloc_frame();
        storm_frames[i].data = alloc_frame();
        storm_frames[i].win_l1e = pt_entry_maddr((unsigned long)storm_win[i],
                                                 1);
        storm_frames[i].win_mfn = virt_to_mfn(storm_win[i]);
    }

    /*
     * Helpers: 1 from 3 vCPUs (storming and flushing), 2 from 4 (one
     * storming, one flushing); readers: the vCPUs left but vCPU 0.
     */
    first_helper = nr_vcpus - (nr_vcpus >= 4 ? 2 : nr_vcpus - 2);
    nr_readers = first_helper - 1;
    for ( i = 1; i <= nr_readers; i++ )
        readers_mask |= 1UL << i;
}

static void teardown(void)
{
    unsigned int i;

    for ( i = 0; i < NR_FRAMES; i++ )
        check_rc(remap_initial((unsigned long)wins[i]), 0);
    check_rc(remap_initial(X), 0);
    check_rc(remap_initial((unsigned long)fw_page), 0);
    check_rc(remap_initial((unsigned long)fr_page), 0);
}

static bool start_vcpus(unsigned int from, unsigned int to)
{
    unsigned int i;
    long rc;

    for ( i = from; i < to; i++ )
        if ( (rc = start_vcpu(i)) )
        {
            test_fail("starting vCPU %u: %ld", i, rc);
            return false;
        }
    return true;
}

void test_main(void)
{
    unsigned long steps = cmdline_ulong("steps", 1600);
    unsigned long storm_steps = cmdline_ulong("storm_steps", 160);
    unsigned long rounds = cmdline_ulong("rounds", 100);
    unsigned long want = cmdline_ulong("vcpus", MAX_VCPUS);
    uint64_t k = 0;
    bool ok;

    if ( event_init() )
        return test_error("event_init failed");
    nr_vcpus = 1;
    while ( nr_vcpus < want && nr_vcpus < MAX_VCPUS &&
            vcpu_op(VCPUOP_is_up, nr_vcpus, NULL) != -XEN_ENOENT )
        nr_vcpus++;
    if ( nr_vcpus < 2 )
        return test_skip("needs 2 vCPUs or more, has %u", nr_vcpus);
    setup();
    printf("flush-race: %u vCPUs: %u reader(s), %u helper(s)\n", nr_vcpus,
           nr_readers, nr_vcpus - first_helper);

    if ( !start_vcpus(1, first_helper) )
        return;
    enter_phase(PH_STALE);
    ok = stale_check("stale", steps, true, &k);
    if ( !end_phase(PH_STALE, "stale") || !ok )
        return;

    STORE(readers_stop, 0);
    STORE(helpers_stop, 0);
    if ( !start_vcpus(first_helper, nr_vcpus) )
        return;
    enter_phase(PH_STORM);
    if ( nr_vcpus < 3 )
        printf("flush-race: storm: no vCPU left to storm, skipped\n");
    else
        ok = stale_check("storm", storm_steps, false, &k);
    if ( !end_phase(PH_STORM, "storm") || !ok )
        return;

    STORE(helpers_stop, 0);
    enter_phase(PH_SAFETY);
    safety_check(rounds);
    if ( !end_phase(PH_SAFETY, "safety") )
        return;

    teardown();
    printf("flush-race: done\n");
    test_success();
}
