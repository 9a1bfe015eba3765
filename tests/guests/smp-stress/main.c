/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every hypercall family from 4 vCPUs at once, on shared objects, each
 * result checked against what Xen could answer in that race.  A round:
 * all vCPUs start together, each runs a seeded random mix of steps,
 * then vCPU 0 checks the end state and cleans up; then a race phase in
 * which all vCPUs make the same call at the same moment, and vCPU 0
 * checks that exactly one won.  With mm-audit=16 the shim recounts its
 * frame table after every sixteenth call that changes a reference (and
 * at the end): a miscount lasts, and between audits the vCPUs race.
 *
 * - MMU: batches of mmu_update of the same and different slots of a
 *   shared L1 and L2 (the L2 pointing at the L1) and of each vCPU's
 *   private L1 and L2, mapping a few tagged data frames; pins and unpins
 *   of all four (shared: 0 or -EINVAL, pinned or not already, or being
 *   validated or written as data by another vCPU; private: exactly as
 *   the vCPU's own bookkeeping says); update_va_mapping of a private and
 *   a shared window with every flush kind (a private one read back
 *   after a flush that reached this vCPU: the frame's tag, or a fault);
 *   a pin of a data frame this vCPU maps writable (-EINVAL); MMUEXT
 *   flushes.  End: every table unpinned (the shared pins' count
 *   agrees), each table frame mappable writable, each data frame
 *   pinnable as an L1 (no reference of a mapping left behind), the
 *   windows back at their own frames.
 * - Grants (v1, the guest's own table, domid = itself): host maps of the
 *   same refs into shared windows (read, and written if writable,
 *   through the window: the granted frame's tag), unmaps of the same
 *   handle by several vCPUs (exactly one GNTST_okay; the others
 *   GNTST_bad_handle, or GNTST_general_error once the handle names
 *   another mapping), copies between refs and frames, while any vCPU
 *   revokes an unused entry and grants it again (as a kernel's
 *   gnttab_end_foreign_access(): cmpxchg of the flags to 0 while
 *   neither GTF_reading nor GTF_writing is set) with another frame or
 *   read-only flag.  A map or copy is GNTST_okay, or GNTST_general_error
 *   where the entry was revoked or is read-only for a writable access
 *   (Xen's _set_status()): only then.  End: no mapping left, every
 *   entry's GTF_reading/GTF_writing clear, each frame's contents intact
 *   and its type free (zeroed, it pins as an L1).
 * - Events (2-level for the first half of the rounds, FIFO for the
 *   rest): ports bound (bind_ipi, bind_virq(VIRQ_DEBUG), alloc_unbound
 *   then bind_interdomain to it from any vCPU) and closed while others
 *   send to them, unmask, mask, bind_vcpu, status and set_priority
 *   them.  A call on a port whose slot didn't change meanwhile must
 *   give Xen's answer for its state; one that raced a close may also
 *   get -EINVAL.  End: every port unmasked; each send that returned 0
 *   on a port that stayed bound was delivered afterwards (on whichever
 *   vCPU); no port delivered that wasn't bound this round.
 * - vCPUs and time: get_runstate_info and is_up of others, periodic
 *   timers set and stopped on others, NMIs to any vCPU (each counts its
 *   own), singleshot timers (another's: -EINVAL; past with
 *   VCPU_SSHOTTMR_future: -ETIME), set_timer_op, SCHEDOP_yield, poll
 *   with a timeout, block until a timer.  End: each vCPU's last timer
 *   armed fired (VIRQ_TIMER), each vCPU sent an NMI took one.
 * - Memory and console (no domain lock, as in Xen): each vCPU gives a
 *   frame of its own back (decrease_reservation: 1) and takes one again
 *   (populate_physmap: 1, its M2P entry the gpfn asked for), the
 *   reservation never past the maximum; console_io writes of whole
 *   lines, the shim's one line buffer shared by all.
 * - Descriptors: one GDT frame all four vCPUs load (set_gdt), each
 *   writing descriptors of its own there (update_descriptor: its own
 *   CPU's copy has the new limit at once) and loading the frame again
 *   meanwhile.  End: every vCPU's copy has every vCPU's last limits.
 * - The race phase: four pins of one L1 (one 0, three -EINVAL), four
 *   unpins (likewise); four bind_virq(VIRQ_DEBUG) on one vCPU (one port,
 *   three -EEXIST); four bind_interdomain to one unbound port (one port,
 *   three -EINVAL); four unmaps of one handle (one GNTST_okay, three
 *   GNTST_bad_handle); four maps of one ref at once (four distinct
 *   handles, the entry reading and writing until the last unmap); a
 *   storm of sends into one vCPU's ports (each delivers again after
 *   it); sends to masked ports one vCPU closes meanwhile (0 before the
 *   close, -EINVAL after, no closed port left pending); one vCPU's
 *   timers set and stopped by all four (its last singleshot fires, a
 *   periodic one set after ticks and stops when stopped); four
 *   decrease_reservations of one frame (one 1, three 0: the frame went
 *   once, vCPU 0 takes one back), after four XENMEM_exchanges of one
 *   frame (one 0, its new frame at its gpfn, three -EINVAL with nothing
 *   exchanged, the old frame gone once); four long console lines at
 *   once.
 *
 * A vCPU that stops making progress (a barrier waits WAIT_NS) is named
 * with the step and operation it was in.  Command line: rounds=N
 * (default 24), steps=N (per vCPU and round, default 60), seed=N.
 */
#include "guest.h"
#include "event.h"
#include "fuzz.h"
#include "grant.h"
#include "mm.h"
#include "smp.h"

const char test_title[] = "Every hypercall family from 4 vCPUs at once";

#define NR_VCPUS        4
#define WAIT_NS         10000000000ULL  /* a barrier: a vCPU is stuck */
#define DELIVERY_NS     3000000000ULL   /* an event, timer or NMI: lost */
#define MAX_REPORTS     24

/* ------------------------------------------------------------- state */

/* Per vCPU: its generator, progress (for a hang report) and records. */
static struct cpu {
    unsigned int id;
    uint64_t rng;
    unsigned long step;
    const char *op;                 /* the operation under way */
    unsigned int opi;               /* its index in ops[] */
    bool pl1_pinned, pl2_pinned;    /* its private tables */
    int held_ref;                   /* a grant it revoked, or -1 */
    bool armed;                     /* its singleshot timer */
    uint32_t armed_count;           /* VIRQ_TIMERs taken before arming */
    uint64_t runstate_sum[NR_VCPUS];
    unsigned long mask;             /* a vCPU bitmap for _MULTI flushes */
    uint16_t gdt_limit[4];          /* its descriptors' last limits */
    unsigned long balloon_mfn;      /* its frame to give back */
    bool ballooned;                 /* given back: populate next */
    long race_rc;                   /* this vCPU's call of a race */
    grant_handle_t race_handle;
} __attribute__((aligned(64))) cpus[NR_VCPUS];

static unsigned int nr_rounds, nr_steps, round_no;
static unsigned int nr_failures, ending;
static bool fifo;                   /* this round's event ABI */
static struct smp_barrier barrier;

/*
 * For the summary: each operation's steps, and the refusals among them
 * that Xen gives only in a race (a map of a ref being revoked, a second
 * unmap of a handle, ...): proof that the races happened.
 */
#define NR_OPS          32
static unsigned int op_steps[NR_OPS], op_raced[NR_OPS];

static uint64_t rnd_next(struct cpu *c)
{
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    return c->rng;
}

static unsigned int below(struct cpu *c, unsigned int n)
{
    return rnd_next(c) % n;
}

static void __printf(2, 3) fail(struct cpu *c, const char *fmt, ...)
{
    char msg[200];
    va_list args;

    if ( ADD(nr_failures, 1) > MAX_REPORTS )
        return;
    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);
    test_fail("round %u, vCPU %u, step %lu: %s", LOAD(round_no), c->id,
              c->step, msg);
}

/* A refusal that Xen gives only in a race: counted for the summary. */
static void raced(struct cpu *c)
{
    ADD(op_raced[c->opi], 1);
}

/*
 * A guest-side lock for the tests' own bookkeeping (never held across a
 * hypercall).  A vCPU that can't get it soon sleeps a moment, so a
 * holder that the host (or single-threaded TCG) isn't running gets on.
 */
static void lock(unsigned int *l)
{
    unsigned int spins = 0;

    while ( __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) )
        while ( LOAD(*l) )
            if ( ++spins % 1024 )
                asm volatile ( "pause" );
            else
                smp_sleep(20000);
}

static void unlock(unsigned int *l)
{
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- MMU */

#define NR_DATA         6
#define NR_SHARED_SLOTS 8           /* the slots the vCPUs fight over */
#define MAX_BATCH       16          /* mmu_update requests in one call */
/* Not present as a PTE: a data frame is a valid (empty) L1 too. */
#define DATA_TAG(i)     (UINT64_C(0x6461746100000000) + ((i) << 1))
#define WIN_MARK(i)     (UINT64_C(0x77696e0000000000) + (i))

static unsigned long data_mfn[NR_DATA];     /* tagged, never tables */
static unsigned long sl1, sl2, race_l1;     /* shared tables */
static unsigned long pl1[NR_VCPUS], pl2[NR_VCPUS];
static int shared_pins[2];                  /* sl1's, sl2's: pins - unpins */

static uint8_t pwin[NR_VCPUS][PAGE_SIZE] __page_aligned;
static uint8_t swin[PAGE_SIZE] __page_aligned;
static uint8_t check_win[PAGE_SIZE] __page_aligned;

static uint64_t data_pte(struct cpu *c)
{
    switch ( below(c, 3) )
    {
    case 0:
        return 0;
    case 1:
        return pte_make(data_mfn[below(c, NR_DATA)], PTE_RO);
    default:
        return pte_make(data_mfn[below(c, NR_DATA)], PTE_RW);
    }
}

static uint64_t slot_ptr(unsigned long table, unsigned int slot)
{
    return ((uint64_t)table << PAGE_SHIFT) + slot * 8;
}

/*
 * A batch of updates to an L1 and an L2 (whose entries point at the L1
 * or nowhere), as a kernel batches them: the shared pair, or this
 * vCPU's own.  All done, or (shared only) -EINVAL where a table was
 * being (de)validated or written as data by another vCPU meanwhile.
 */
static void mmu_update_batch(struct cpu *c, bool shared)
{
    unsigned long l1 = shared ? sl1 : pl1[c->id];
    unsigned long l2 = shared ? sl2 : pl2[c->id];
    unsigned int n = 1 + below(c, MAX_BATCH), i, done = ~0u, slot;
    mmu_update_t req[MAX_BATCH];
    long rc;

    for ( i = 0; i < n; i++ )
    {
        slot = below(c, NR_SHARED_SLOTS);
        if ( below(c, 4) )
        {
            req[i].ptr = slot_ptr(l1, slot);
            req[i].val = data_pte(c);
        }
        else
        {
            /* The private L2 has one slot: its bookkeeping stays simple. */
            req[i].ptr = slot_ptr(l2, shared ? slot : 0);
            req[i].val = below(c, 2) ? pte_make(l1, PTE_TABLE) : 0;
        }
    }
    rc = hypercall_mmu_update(req, n, &done, DOMID_SELF);
    if ( shared && rc == -XEN_EINVAL && done < n )
        raced(c);
    else if ( rc || done != n )
        fail(c, "mmu_update of %u entries of the %s tables: %ld, %u done",
             n, shared ? "shared" : "private", rc, done);
}

static void mmu_update_shared(struct cpu *c)
{
    mmu_update_batch(c, true);
}

static void mmu_update_private(struct cpu *c)
{
    mmu_update_batch(c, false);
}

/*
 * A frame this vCPU maps writable (at its window) can't become a page
 * table: pinning it is -EINVAL, whatever the others do meanwhile.
 */
static void mmu_pin_mapped(struct cpu *c)
{
    unsigned int k = below(c, NR_DATA);
    long rc = hypercall_update_va_mapping((unsigned long)pwin[c->id],
                                          pte_make(data_mfn[k], PTE_RW),
                                          UVMF_INVLPG | UVMF_LOCAL);

    if ( rc )
        return fail(c, "update_va_mapping of its window: %ld", rc);
    rc = pin_table(1, data_mfn[k]);
    if ( rc == -XEN_EINVAL )
        return;
    fail(c, "pin of data frame %u, mapped writable here: %ld", k, rc);
    if ( !rc )
        unpin_table(data_mfn[k]);
}

/*
 * Pin (@pin) or unpin one of the four tables.  A shared one: 0 or
 * -EINVAL (pinned, or not, already; or mid-validation elsewhere), the
 * successes counted.  A private one: what this vCPU's record says.
 */
static void mmu_pin_one(struct cpu *c, bool pin)
{
    unsigned int which = below(c, 4), level = which & 1 ? 2 : 1;
    bool shared = which < 2;
    unsigned long mfn = shared ? (level == 1 ? sl1 : sl2)
                               : (level == 1 ? pl1[c->id] : pl2[c->id]);
    bool *pinned = level == 1 ? &c->pl1_pinned : &c->pl2_pinned;
    long rc = pin ? pin_table(level, mfn) : unpin_table(mfn);
    const char *what = pin ? "pin" : "unpin";

    if ( shared )
    {
        /* -EINVAL: pinned (not pinned) already, or mid-validation. */
        if ( !rc )
            ADD(shared_pins[level - 1], pin ? 1 : -1);
        else if ( rc != -XEN_EINVAL )
            fail(c, "%s of the shared L%u: %ld", what, level, rc);
        return;
    }
    if ( rc != (*pinned == pin ? -XEN_EINVAL : 0) )
        fail(c, "%s of its L%u (%spinned): %ld", what, level,
             *pinned ? "" : "not ", rc);
    if ( !rc )
        *pinned = pin;
}

static void mmu_pin(struct cpu *c)
{
    mmu_pin_one(c, true);
}

static void mmu_unpin(struct cpu *c)
{
    mmu_pin_one(c, false);
}

/* A flush kind for update_va_mapping, and whether it reaches this vCPU. */
static unsigned long uvm_flags(struct cpu *c, bool *here)
{
    unsigned long type = below(c, 2) ? UVMF_INVLPG : UVMF_TLB_FLUSH;

    switch ( below(c, 4) )
    {
    case 0:
        *here = false;
        return UVMF_NONE;
    case 1:
        *here = true;
        return type | UVMF_LOCAL;
    case 2:
        *here = true;
        return type | UVMF_ALL;
    default:
        c->mask = below(c, 1u << NR_VCPUS);
        *here = c->mask & (1UL << c->id);
        return type | (unsigned long)&c->mask;
    }
}

/* What @va reads after mapping @pte there and flushing this vCPU. */
static void check_window(struct cpu *c, unsigned long va, uint64_t pte)
{
    unsigned int i;
    exinfo_t ex;

    if ( !(pte & _PAGE_PRESENT) )
    {
        if ( exinfo_vector(probe_read((void *)va)) != X86_EXC_PF )
            fail(c, "window %#lx reads after its unmap", va);
        return;
    }
    for ( i = 0; i < NR_DATA && pte_mfn(pte) != data_mfn[i]; i++ )
        ;
    if ( (ex = probe_read((void *)va)) || peek(va) != DATA_TAG(i) )
        fail(c, "window %#lx, mapped to data frame %u: fault %#lx, reads "
             "%#llx", va, i, (unsigned long)ex,
             ex ? 0ULL : (unsigned long long)peek(va));
    else if ( !(pte & _PAGE_RW) &&
              exinfo_vector(probe_write((void *)va)) != X86_EXC_PF )
        fail(c, "window %#lx, read-only, takes a write", va);
}

static void uvm_private(struct cpu *c)
{
    unsigned long va = (unsigned long)pwin[c->id];
    uint64_t pte = data_pte(c);
    bool here;
    unsigned long flags = uvm_flags(c, &here);
    long rc = hypercall_update_va_mapping(va, pte, flags);

    if ( rc )
        fail(c, "update_va_mapping of its window (flags %#lx): %ld", flags,
             rc);
    else if ( here )
        check_window(c, va, pte);
}

/*
 * The shared window: whatever it maps now, a data frame's tag or a
 * fault; or, before a flush reached this vCPU, its own frame's mark.
 */
static void uvm_shared(struct cpu *c)
{
    unsigned long va = (unsigned long)swin;
    bool here;
    unsigned long flags = uvm_flags(c, &here);
    long rc = hypercall_update_va_mapping(va, data_pte(c), flags);
    uint64_t v = 0;
    unsigned int i;

    if ( rc )
        fail(c, "update_va_mapping of the shared window (flags %#lx): %ld",
             flags, rc);
    /* One access: another vCPU may unmap the window at any moment. */
    if ( probe_peek(swin, &v) )
        return;
    for ( i = 0; i < NR_DATA && v != DATA_TAG(i); i++ )
        ;
    if ( i == NR_DATA && v != WIN_MARK(NR_VCPUS) )
        fail(c, "the shared window reads %#llx, no data frame's tag",
             (unsigned long long)v);
}

static void mmu_flush(struct cpu *c)
{
    static const unsigned int cmds[] = {
        MMUEXT_TLB_FLUSH_LOCAL, MMUEXT_INVLPG_LOCAL, MMUEXT_TLB_FLUSH_ALL,
        MMUEXT_INVLPG_ALL, MMUEXT_TLB_FLUSH_MULTI, MMUEXT_INVLPG_MULTI,
    };
    unsigned int cmd = cmds[below(c, ARRAY_SIZE(cmds))];
    long rc;

    c->mask = below(c, 1u << NR_VCPUS);
    rc = mmuext_flush(cmd, (unsigned long)(below(c, 2) ? swin
                                                        : pwin[c->id]),
                       &c->mask);
    if ( rc )
        fail(c, "mmuext_op %u: %ld", cmd, rc);
}

/* A vCPU's own cleanup: its tables unpinned, its window back. */
static void mmu_private_end(struct cpu *c)
{
    unsigned long va = (unsigned long)pwin[c->id];
    long rc;

    if ( c->pl2_pinned && (rc = unpin_table(pl2[c->id])) )
        fail(c, "unpinning its L2 at the end: %ld", rc);
    if ( c->pl1_pinned && (rc = unpin_table(pl1[c->id])) )
        fail(c, "unpinning its L1 at the end: %ld", rc);
    c->pl1_pinned = c->pl2_pinned = false;
    if ( (rc = remap_initial(va)) )
        fail(c, "its window back: %ld", rc);
    else if ( peek(va) != WIN_MARK(c->id) )
        fail(c, "its window back reads %#llx", (unsigned long long)peek(va));
}

/* Map @mfn writable at check_win and back: 0, or why not. */
static long writable_again(unsigned long mfn)
{
    long rc = map_frame_at((unsigned long)check_win, mfn, PTE_RW);

    return rc ? rc : remap_initial((unsigned long)check_win);
}

/* vCPU 0, the others done: pins agree, every table writable again. */
static void mmu_end(struct cpu *c)
{
    static const char *const name[2] = { "L1", "L2" };
    unsigned long frames[2 + 2 * NR_VCPUS + 1];
    unsigned int i, n = 0;
    long rc;

    for ( i = 2; i-- > 0; )
    {
        rc = unpin_table(i ? sl2 : sl1);
        if ( rc && rc != -XEN_EINVAL )
            fail(c, "unpinning the shared %s at the end: %ld", name[i], rc);
        if ( shared_pins[i] != !rc )
            fail(c, "the shared %s: %d more pins than unpins succeeded, "
                 "and it was %spinned", name[i], shared_pins[i],
                 rc ? "not " : "");
        shared_pins[i] = 0;
    }
    frames[n++] = sl1;
    frames[n++] = sl2;
    frames[n++] = race_l1;
    for ( i = 0; i < NR_VCPUS; i++ )
    {
        frames[n++] = pl1[i];
        frames[n++] = pl2[i];
    }
    for ( i = 0; i < n; i++ )
        if ( (rc = writable_again(frames[i])) )
            fail(c, "table frame %#lx not writable at the end: %ld",
                 frames[i], rc);
    if ( (rc = remap_initial((unsigned long)swin)) )
        fail(c, "the shared window back: %ld", rc);
    else if ( peek((unsigned long)swin) != WIN_MARK(NR_VCPUS) )
        fail(c, "the shared window back reads %#llx",
             (unsigned long long)peek((unsigned long)swin));
    /* No mapping of a data frame is left: each takes a table's type. */
    for ( i = 0; i < NR_DATA; i++ )
    {
        if ( frame_get_pte(data_mfn[i], 0) != DATA_TAG(i) )
            fail(c, "data frame %u lost its tag", i);
        if ( (rc = pin_table(1, data_mfn[i])) )
            fail(c, "data frame %u won't pin as an L1 at the end: %ld", i,
                 rc);
        else if ( (rc = unpin_table(data_mfn[i])) )
            fail(c, "data frame %u: unpin: %ld", i, rc);
    }
}

/* ------------------------------------------------------------- grants */

#define NR_REFS         6
#define REF0            32          /* the refs REF0.. fought over */
#define RACE_REF        (REF0 + NR_REFS)
#define NR_GFRAMES      4
#define NR_GWIN         8
#define GNT_TAG(i)      (UINT64_C(0x676e740000000000) + (i))
#define NR_HANDLES      1024

static unsigned long gframe[NR_GFRAMES];
static uint8_t gwin[NR_GWIN][PAGE_SIZE] __gnt_page;
static uint8_t race_gwin[NR_VCPUS + 1][PAGE_SIZE] __gnt_page;
static uint8_t gframe_image[PAGE_SIZE];     /* a frame's contents but tag */
static uint8_t frame_buf[PAGE_SIZE];

/*
 * Each ref: seq odd while a vCPU revokes or re-grants it (a call that
 * saw seq even and unchanged around it met a stable entry), and the
 * entry's frame and read-only flag as last granted.
 */
static struct gref {
    unsigned int seq;
    unsigned int frame;             /* gframe[] index */
    bool ro;
} grefs[NR_REFS];

/* A window: free, being mapped, or mapped with @handle and being unmapped. */
enum { GW_FREE, GW_MAPPING, GW_MAPPED };
static struct gwin_state {
    unsigned int lock, state;
    grant_handle_t handle;
    unsigned int ref;
    bool ro;
    unsigned int unmappers, okays, others;
    int16_t other_st;
} gws[NR_GWIN];

static uint8_t handle_live[NR_HANDLES];

static uint8_t image_byte(unsigned int off)
{
    return off * 7 + 3;
}

static unsigned int gframe_index(unsigned long mfn)
{
    unsigned int i;

    for ( i = 0; i < NR_GFRAMES && gframe[i] != mfn; i++ )
        ;
    return i;
}

static bool gref_stable(unsigned int s1, unsigned int s2)
{
    return s1 == s2 && !(s1 & 1);
}

/*
 * A new mapping with handle @h: no other live mapping has it; the
 * window shows the granted frame, and takes a write if writable.
 */
static void gnt_check_new(struct cpu *c, unsigned int w,
                          const struct gnttab_map_grant_ref *op, bool ro)
{
    unsigned long va = (unsigned long)gwin[w];
    unsigned long mfn = gnt_v1[op->ref].frame;
    unsigned int f = gframe_index(mfn), off = 8 + below(c, PAGE_SIZE - 8);
    exinfo_t ex;

    if ( op->handle < NR_HANDLES &&
         __atomic_exchange_n(&handle_live[op->handle], 1, __ATOMIC_SEQ_CST) )
        fail(c, "map of ref %u: handle %u is another live mapping's",
             op->ref, op->handle);
    if ( f == NR_GFRAMES || op->dev_bus_addr != (uint64_t)mfn << PAGE_SHIFT )
        fail(c, "map of ref %u: frame %#llx, the entry grants %#lx",
             op->ref, (unsigned long long)op->dev_bus_addr, mfn);
    else if ( (ex = probe_read(gwin[w])) || peek(va) != GNT_TAG(f) )
        fail(c, "map of ref %u (frame %u) at window %u: fault %#lx, reads "
             "%#llx", op->ref, f, w, (unsigned long)ex,
             ex ? 0ULL : (unsigned long long)peek(va));
    if ( ro )
    {
        if ( exinfo_vector(probe_write(&gwin[w][off])) != X86_EXC_PF )
            fail(c, "read-only map of ref %u takes a write", op->ref);
    }
    else if ( (ex = probe_write(&gwin[w][off])) )
        fail(c, "writable map of ref %u: a write faults (%#lx)", op->ref,
             (unsigned long)ex);
    else
        *(volatile uint8_t *)&gwin[w][off] = image_byte(off);
}

/* A window of @state, claimed (GW_FREE) or joined (GW_MAPPED); -1: none. */
static int gwin_pick(struct cpu *c, unsigned int state)
{
    unsigned int start = below(c, NR_GWIN), i, w;

    for ( i = 0; i < NR_GWIN; i++ )
    {
        struct gwin_state *g = &gws[w = (start + i) % NR_GWIN];

        lock(&g->lock);
        if ( g->state == state && (state == GW_FREE || !g->okays) )
        {
            if ( state == GW_FREE )
                g->state = GW_MAPPING;
            else
                g->unmappers++;
            unlock(&g->lock);
            return w;
        }
        unlock(&g->lock);
    }
    return -1;
}

static void gnt_map(struct cpu *c)
{
    int w = gwin_pick(c, GW_FREE);
    unsigned int r = below(c, NR_REFS), s1, s2;
    bool ro = !below(c, 3), grant_ro;
    struct gnttab_map_grant_ref op;
    int16_t st;

    if ( w < 0 )
        return;
    s1 = LOAD(grefs[r].seq);
    grant_ro = grefs[r].ro;
    st = gnt_map1(&op, GNT_SELF_ID, REF0 + r,
                  GNTMAP_host_map | (ro ? GNTMAP_readonly : 0),
                  (unsigned long)gwin[w]);
    s2 = LOAD(grefs[r].seq);
    if ( st == GNTST_okay )
        gnt_check_new(c, w, &op, ro);
    if ( gref_stable(s1, s2) )
    {
        if ( st != (!ro && grant_ro ? GNTST_general_error : GNTST_okay) )
            fail(c, "%s map of ref %u (granted %s): status %d",
                 ro ? "read-only" : "writable", REF0 + r,
                 grant_ro ? "read-only" : "writable", st);
    }
    else if ( st == GNTST_general_error )
        raced(c);
    else if ( st != GNTST_okay )
        fail(c, "map of ref %u while it was re-granted: status %d", REF0 + r,
             st);

    lock(&gws[w].lock);
    if ( st == GNTST_okay )
    {
        gws[w].state = GW_MAPPED;
        gws[w].handle = op.handle;
        gws[w].ref = REF0 + r;
        gws[w].ro = ro;
    }
    else
        gws[w].state = GW_FREE;
    unlock(&gws[w].lock);
}

/*
 * Unmap a mapped window by its handle, maybe while other vCPUs do the
 * same: when the last of them is done, exactly one had GNTST_okay, the
 * others GNTST_bad_handle (the handle was free) or GNTST_general_error
 * (it named a newer mapping elsewhere, whose PTE isn't at this window).
 */
static void gnt_unmap(struct cpu *c)
{
    int w = gwin_pick(c, GW_MAPPED);
    struct gwin_state *g;
    grant_handle_t h;
    int16_t st;

    if ( w < 0 )
        return;
    g = &gws[w];
    h = g->handle;                  /* fixed while unmappers > 0 */
    st = gnt_unmap1((unsigned long)gwin[w], h, 0);
    if ( st == GNTST_okay )
    {
        if ( h < NR_HANDLES &&
             !__atomic_exchange_n(&handle_live[h], 0, __ATOMIC_SEQ_CST) )
            fail(c, "unmap of handle %u: it wasn't live", h);
        if ( exinfo_vector(probe_read(gwin[w])) != X86_EXC_PF )
            fail(c, "window %d still reads after its unmap", w);
    }
    else if ( st != GNTST_bad_handle && st != GNTST_general_error )
        fail(c, "unmap of handle %u (ref %u): status %d", h, g->ref, st);

    lock(&g->lock);
    if ( st == GNTST_okay )
        g->okays++;
    else
    {
        g->others++;
        g->other_st = st;
    }
    if ( !--g->unmappers )
    {
        if ( g->okays > 1 )
            fail(c, "handle %u (ref %u) unmapped %u times", h, g->ref,
                 g->okays);
        else if ( !g->okays )
            fail(c, "unmap of live handle %u (ref %u): status %d", h,
                 g->ref, g->other_st);
        else if ( g->others )
            raced(c);
        g->state = g->okays ? GW_FREE : GW_MAPPED;
        g->okays = g->others = 0;
    }
    unlock(&g->lock);
}

/* One side of a copy: a ref (maybe read-only) or a frame of our own. */
static void copy_side(struct cpu *c, struct gnttab_copy_ptr *p, bool *gref,
                      unsigned int *r)
{
    *gref = below(c, 4);
    *r = below(c, NR_REFS);
    if ( *gref )
    {
        p->u.ref = REF0 + *r;
        p->domid = below(c, 2) ? DOMID_SELF : GNT_SELF_ID;
    }
    else
    {
        p->u.gmfn = gframe[below(c, NR_GFRAMES)];
        p->domid = DOMID_SELF;
    }
}

/*
 * A copy keeps every frame's image: same offset on both sides, past the
 * tag.  GNTST_okay, or GNTST_general_error for a read-only destination
 * ref or a ref re-granted meanwhile.
 */
static void gnt_copy(struct cpu *c)
{
    struct gnttab_copy op = { .status = 99 };
    bool sref, dref, d_ro;
    unsigned int sr, dr, ss, ds, se, de;
    long rc;

    copy_side(c, &op.source, &sref, &sr);
    copy_side(c, &op.dest, &dref, &dr);
    op.len = 1 + below(c, 256);
    op.source.offset = op.dest.offset = 8 + below(c, PAGE_SIZE - 8 - op.len);
    op.flags = (sref ? GNTCOPY_source_gref : 0) |
               (dref ? GNTCOPY_dest_gref : 0);
    ss = LOAD(grefs[sr].seq);
    ds = LOAD(grefs[dr].seq);
    d_ro = grefs[dr].ro;
    rc = gnttab_op(GNTTABOP_copy, &op, 1);
    se = LOAD(grefs[sr].seq);
    de = LOAD(grefs[dr].seq);
    if ( rc )
        return fail(c, "GNTTABOP_copy: %ld", rc);
    if ( (sref && !gref_stable(ss, se)) || (dref && !gref_stable(ds, de)) )
    {
        if ( op.status == GNTST_general_error )
            raced(c);
        else if ( op.status != GNTST_okay )
            fail(c, "copy ref %u -> ref %u, re-granted meanwhile: status %d",
                 sref ? REF0 + sr : 0, dref ? REF0 + dr : 0, op.status);
    }
    else if ( op.status != (dref && d_ro ? GNTST_general_error
                                         : GNTST_okay) )
        fail(c, "copy %s %u -> %s %u%s: status %d",
             sref ? "ref" : "frame", sref ? REF0 + sr : 0,
             dref ? "ref" : "frame", dref ? REF0 + dr : 0,
             dref && d_ro ? " (read-only)" : "", op.status);
}

/* Grant @r again, with another frame and read-only flag. */
static void gnt_regrant(struct cpu *c, unsigned int r)
{
    grefs[r].frame = below(c, NR_GFRAMES);
    grefs[r].ro = !below(c, 3);
    gnt_grant(1, REF0 + r, GNT_SELF_ID, gframe[grefs[r].frame],
              grefs[r].ro ? GTF_readonly : 0);
    STORE(grefs[r].seq, grefs[r].seq + 1);
}

/*
 * The granting side: give back a ref held revoked, or revoke one as a
 * kernel ends foreign access, if no mapping or copy uses it now; it
 * stays revoked until this vCPU's next grant step.
 */
static void gnt_revoke(struct cpu *c)
{
    unsigned int r = below(c, NR_REFS), s;
    uint16_t flags;

    if ( c->held_ref >= 0 )
    {
        gnt_regrant(c, c->held_ref);
        c->held_ref = -1;
        return;
    }
    s = LOAD(grefs[r].seq);
    if ( (s & 1) ||
         !__atomic_compare_exchange_n(&grefs[r].seq, &s, s + 1, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) )
        return;
    flags = __atomic_load_n(&gnt_v1[REF0 + r].flags, __ATOMIC_SEQ_CST);
    if ( (flags & (GTF_reading | GTF_writing)) ||
         !__atomic_compare_exchange_n(&gnt_v1[REF0 + r].flags, &flags, 0,
                                      false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_SEQ_CST) )
    {
        STORE(grefs[r].seq, s + 2);     /* in use: left granted */
        return;
    }
    c->held_ref = r;
}

static void gnt_private_end(struct cpu *c)
{
    if ( c->held_ref >= 0 )
        gnt_regrant(c, c->held_ref);
    c->held_ref = -1;
}

/* A grant frame's contents: its tag, then the image. */
static void gframe_write(unsigned int i)
{
    uint64_t tag = GNT_TAG(i);

    frame_write(gframe[i], 0, gframe_image, PAGE_SIZE);
    frame_write(gframe[i], 0, &tag, sizeof(tag));
}

/*
 * vCPU 0, the others done: no mapping left, no entry in use, each
 * frame's contents intact and its type free: zeroed, it pins as an L1.
 */
static void gnt_end(struct cpu *c)
{
    unsigned int i;
    uint16_t flags;
    int16_t st;
    long rc;

    for ( i = 0; i < NR_GWIN; i++ )
    {
        if ( gws[i].state == GW_MAPPED &&
             (st = gnt_unmap1((unsigned long)gwin[i], gws[i].handle, 0)) )
            fail(c, "unmap of window %u at the end: status %d", i, st);
        else if ( gws[i].state == GW_MAPPED && gws[i].handle < NR_HANDLES )
            handle_live[gws[i].handle] = 0;
        gws[i].state = GW_FREE;
    }
    for ( i = 0; i < NR_HANDLES; i++ )
        if ( handle_live[i] )
            fail(c, "handle %u still live at the end", i);
    for ( i = 0; i <= NR_REFS; i++ )
        if ( (flags = gnt_v1[REF0 + i].flags) & (GTF_reading | GTF_writing) )
            fail(c, "ref %u in use at the end: flags %#x", REF0 + i, flags);
    for ( i = 0; i < NR_GFRAMES; i++ )
    {
        frame_read(gframe[i], 0, frame_buf, PAGE_SIZE);
        if ( *(uint64_t *)frame_buf != GNT_TAG(i) ||
             memcmp(frame_buf + 8, gframe_image + 8, PAGE_SIZE - 8) )
            fail(c, "grant frame %u's contents changed", i);
        frame_fill(gframe[i], 0);
        if ( (rc = pin_table(1, gframe[i])) )
            fail(c, "grant frame %u won't pin as an L1 at the end: %ld", i,
                 rc);
        else if ( (rc = unpin_table(gframe[i])) )
            fail(c, "grant frame %u: unpin: %ld", i, rc);
        gframe_write(i);
    }
}

/* ------------------------------------------------------------- events */

#define NR_SLOTS        10
#define NR_PORT_BYTES   (SMP_EVENT_PORTS / 8)

enum { SL_FREE, SL_BUSY, SL_UNBOUND, SL_BOUND };
enum { K_IPI, K_VIRQ, K_LOOP };
static const char *const kind_name[] = { "IPI", "VIRQ_DEBUG", "loopback" };

/*
 * A slot owns one binding: an IPI or VIRQ_DEBUG port (port[0]), or an
 * unbound port (port[0]) which bind_interdomain makes a loopback pair
 * with port[1].  gen changes with every bind and close; a call that saw
 * the same gen around it met the same binding.  need[i]: port[i] must
 * have been delivered that many times by the end.
 */
static struct slot {
    unsigned int lock, state, kind, gen;
    uint32_t port[2];
    unsigned int vcpu;
    unsigned int binders;           /* bind_interdomains under way */
    uint32_t need[2];
} slots[NR_SLOTS];

static uint32_t timer_port[NR_VCPUS];
static uint8_t bound_now[NR_PORT_BYTES];    /* bound this round, or always */
static uint32_t events_at_start[SMP_EVENT_PORTS];
/*
 * VIRQ_DEBUG of each vCPU: binds and closes that succeeded (counted
 * after the call), and those under way.
 */
static unsigned int virq_binds[NR_VCPUS], virq_closes[NR_VCPUS];
static unsigned int virq_binding[NR_VCPUS], virq_closing[NR_VCPUS];

static void mark_bound(uint32_t port)
{
    if ( port < SMP_EVENT_PORTS )
        __atomic_fetch_or(&bound_now[port / 8], 1u << (port % 8),
                          __ATOMIC_SEQ_CST);
}

/* A slot in one of @states (a bitmap), locked; or NULL. */
static struct slot *slot_pick(struct cpu *c, unsigned int states)
{
    unsigned int start = below(c, NR_SLOTS), i;

    for ( i = 0; i < NR_SLOTS; i++ )
    {
        struct slot *s = &slots[(start + i) % NR_SLOTS];

        lock(&s->lock);
        if ( (1u << s->state) & states )
            return s;
        unlock(&s->lock);
    }
    return NULL;
}

static void slot_bound(struct slot *s, unsigned int state, unsigned int kind,
                       uint32_t port, unsigned int vcpu)
{
    lock(&s->lock);
    s->state = state;
    s->kind = kind;
    s->port[0] = port;
    s->vcpu = vcpu;
    s->need[0] = s->need[1] = 0;
    s->gen++;
    unlock(&s->lock);
    mark_bound(port);
}

/*
 * bind_virq(VIRQ_DEBUG) on @t: a port, if no other is bound (another
 * counted and not closed, nor being closed, is a second binding); or
 * -EEXIST, if one is, or was while this ran.
 */
static void bind_virq_debug(struct cpu *c, struct slot *s, unsigned int t)
{
    unsigned int binds = LOAD(virq_binds[t]), closes = LOAD(virq_closes[t]);
    unsigned int closing;
    long port, rc;

    ADD(virq_binding[t], 1);
    port = evtchn_bind_virq_on(VIRQ_DEBUG, t);
    if ( port > 0 )
    {
        binds = ADD(virq_binds[t], 1);
        closing = LOAD(virq_closing[t]);
        if ( binds - 1 - LOAD(virq_closes[t]) > closing )
            fail(c, "VIRQ_DEBUG bound twice on vCPU %u (port %ld)", t, port);
        slot_bound(s, SL_BOUND, K_VIRQ, port, t);
        if ( (rc = evtchn_unmask(port)) )
            fail(c, "unmask of new port %ld: %ld", port, rc);
    }
    else
    {
        if ( port == -XEN_EEXIST &&
             (LOAD(virq_binding[t]) > 1 || LOAD(virq_closing[t]) ||
              LOAD(virq_binds[t]) != LOAD(virq_closes[t]) ||
              LOAD(virq_binds[t]) != binds || LOAD(virq_closes[t]) != closes) )
            raced(c);
        else
            fail(c, "bind_virq(VIRQ_DEBUG, %u): %ld", t, port);
        lock(&s->lock);
        s->state = SL_FREE;
        unlock(&s->lock);
    }
    ADD(virq_binding[t], -1);
}

/* Bind a free slot: an IPI, a VIRQ_DEBUG, or an unbound port. */
static void ev_bind(struct cpu *c)
{
    struct slot *s = slot_pick(c, 1u << SL_FREE);
    unsigned int t = below(c, NR_VCPUS), kind = below(c, 3);
    long port, rc;

    if ( !s )
        return;
    s->state = SL_BUSY;
    unlock(&s->lock);
    if ( kind == K_VIRQ )
        return bind_virq_debug(c, s, t);
    port = kind == K_IPI ? evtchn_bind_ipi_on(t) : evtchn_alloc_unbound_self();
    if ( port <= 0 )
    {
        fail(c, "%s: %ld", kind == K_IPI ? "bind_ipi" : "alloc_unbound",
             port);
        lock(&s->lock);
        s->state = SL_FREE;
        unlock(&s->lock);
        return;
    }
    slot_bound(s, kind == K_IPI ? SL_BOUND : SL_UNBOUND, kind, port, t);
    if ( (rc = evtchn_unmask(port)) )
        fail(c, "unmask of new port %ld: %ld", port, rc);
}

/*
 * bind_interdomain to a slot's unbound port, maybe while other vCPUs do
 * the same: one gets a port; the others -EINVAL, only while another
 * bind is under way or has won.
 */
static void ev_bindi(struct cpu *c)
{
    struct slot *s = slot_pick(c, 1u << SL_UNBOUND);
    evtchn_bind_interdomain_t b = { .remote_dom = DOMID_SELF };
    unsigned int g;
    long rc;

    if ( !s )
        return;
    s->binders++;
    b.remote_port = s->port[0];
    g = s->gen;
    unlock(&s->lock);
    rc = evtchn_op(EVTCHNOP_bind_interdomain, &b);
    lock(&s->lock);
    s->binders--;
    if ( !rc && s->state == SL_UNBOUND && s->gen == g )
    {
        s->state = SL_BOUND;
        s->port[1] = b.local_port;
        s->gen++;
        unlock(&s->lock);
        mark_bound(b.local_port);
        if ( (rc = evtchn_unmask(b.local_port)) )
            fail(c, "unmask of new port %u: %ld", b.local_port, rc);
        return;
    }
    if ( !rc )
        fail(c, "bind_interdomain to port %u succeeded twice (port %u)",
             b.remote_port, b.local_port);
    else if ( rc == -XEN_EINVAL && (s->state != SL_UNBOUND || s->binders) )
        raced(c);
    else
        fail(c, "bind_interdomain to unbound port %u: %ld", b.remote_port,
             rc);
    unlock(&s->lock);
}

/* Close a slot's ports (masked first, as Linux closes them). */
static void slot_close(struct cpu *c, struct slot *s)
{
    unsigned int i, n = s->kind == K_LOOP && s->state == SL_BOUND ? 2 : 1;
    long rc;

    if ( s->kind == K_VIRQ )
        ADD(virq_closing[s->vcpu], 1);
    for ( i = 0; i < n; i++ )
    {
        evtchn_mask(s->port[i]);
        if ( (rc = evtchn_close(s->port[i])) )
            fail(c, "close of %s port %u: %ld", kind_name[s->kind],
                 s->port[i], rc);
    }
    if ( s->kind == K_VIRQ )
    {
        ADD(virq_closes[s->vcpu], 1);
        ADD(virq_closing[s->vcpu], -1);
    }
}

static void ev_close(struct cpu *c)
{
    struct slot *s = slot_pick(c, (1u << SL_UNBOUND) | (1u << SL_BOUND));
    struct slot copy;

    if ( !s )
        return;
    if ( s->binders )
    {
        unlock(&s->lock);
        return;
    }
    copy = *s;
    s->state = SL_BUSY;
    s->gen++;
    unlock(&s->lock);
    slot_close(c, &copy);
    lock(&s->lock);
    s->state = SL_FREE;
    s->gen++;
    unlock(&s->lock);
}

/*
 * A snapshot of a bound (or unbound) slot, and which of its ports to
 * use; false if none.  The call's answer is checked against it if the
 * slot's gen didn't change meanwhile (slot_same()).
 */
static bool slot_snap(struct cpu *c, struct slot **ps, struct slot *snap,
                      unsigned int *i)
{
    struct slot *s = slot_pick(c, (1u << SL_UNBOUND) | (1u << SL_BOUND));

    if ( !s )
        return false;
    *snap = *s;
    unlock(&s->lock);
    *ps = s;
    *i = snap->kind == K_LOOP && snap->state == SL_BOUND ? below(c, 2) : 0;
    return true;
}

/*
 * A slot's binding is the same as at @snap: same gen, and no
 * bind_interdomain under way then or now (one that succeeds changes an
 * unbound port's state before its vCPU can move gen).  Called locked.
 */
static bool slot_same_locked(const struct slot *s, const struct slot *snap)
{
    return s->gen == snap->gen && !s->binders && !snap->binders;
}

static bool slot_same(struct slot *s, const struct slot *snap)
{
    bool same;

    lock(&s->lock);
    same = slot_same_locked(s, snap);
    unlock(&s->lock);
    return same;
}

/*
 * Send on a port: IPI and loopback ones deliver (to the other end),
 * unbound ones drop it, VIRQ ones are -EINVAL.  A send that returned 0
 * on a binding that stayed must be delivered after it started.
 */
static void ev_send(struct cpu *c)
{
    struct slot *s, snap;
    unsigned int i, rx;
    uint32_t before;
    long rc, want;

    if ( !slot_snap(c, &s, &snap, &i) )
        return;
    rx = snap.kind == K_LOOP && snap.state == SL_BOUND ? !i : 0;
    before = LOAD(smp_port_events[snap.port[rx] % SMP_EVENT_PORTS]);
    rc = evtchn_send(snap.port[i]);
    want = snap.kind == K_VIRQ ? -XEN_EINVAL : 0;
    lock(&s->lock);
    if ( slot_same_locked(s, &snap) )
    {
        if ( rc != want )
            fail(c, "send on %s port %u: %ld", kind_name[snap.kind],
                 snap.port[i], rc);
        else if ( !rc && s->state == SL_BOUND && before + 1 > s->need[rx] )
            s->need[rx] = before + 1;
    }
    else if ( rc == -XEN_EINVAL )
        raced(c);
    else if ( rc )
        fail(c, "send on port %u while it closed: %ld", snap.port[i], rc);
    unlock(&s->lock);
}

static void ev_unmask(struct cpu *c)
{
    struct slot *s, snap;
    unsigned int i;
    long rc;

    if ( slot_snap(c, &s, &snap, &i) && (rc = evtchn_unmask(snap.port[i])) )
        fail(c, "unmask of port %u: %ld", snap.port[i], rc);
}

/* Mask a port in the guest's own bitmap or word: no hypercall. */
static void ev_mask(struct cpu *c)
{
    struct slot *s, snap;
    unsigned int i;

    if ( slot_snap(c, &s, &snap, &i) )
        evtchn_mask(snap.port[i]);
}

/* bind_vcpu: interdomain and unbound ports move; IPIs, VIRQ_DEBUG don't. */
static void ev_bind_vcpu(struct cpu *c)
{
    struct slot *s, snap;
    unsigned int i;
    evtchn_bind_vcpu_t b;
    long rc, want;

    if ( !slot_snap(c, &s, &snap, &i) )
        return;
    b.port = snap.port[i];
    b.vcpu = below(c, NR_VCPUS);
    rc = evtchn_op(EVTCHNOP_bind_vcpu, &b);
    want = snap.kind == K_LOOP ? 0 : -XEN_EINVAL;
    if ( slot_same(s, &snap) ? rc != want : rc && rc != -XEN_EINVAL )
        fail(c, "bind_vcpu of %s port %u to vCPU %u: %ld",
             kind_name[snap.kind], b.port, b.vcpu, rc);
}

/* EVTCHNOP_status says what the slot bound. */
static void ev_status(struct cpu *c)
{
    struct slot *s, snap;
    unsigned int i;
    evtchn_status_t st;
    long rc;
    bool ok;

    if ( !slot_snap(c, &s, &snap, &i) )
        return;
    if ( (rc = evtchn_status_of(snap.port[i], &st)) )
        return fail(c, "status of port %u: %ld", snap.port[i], rc);
    if ( !slot_same(s, &snap) )
        return;
    if ( snap.state == SL_UNBOUND )
        ok = st.status == EVTCHNSTAT_unbound &&
             st.u.unbound.dom == GNT_SELF_ID;
    else if ( snap.kind == K_LOOP )
        ok = st.status == EVTCHNSTAT_interdomain &&
             st.u.interdomain.dom == GNT_SELF_ID &&
             st.u.interdomain.port == snap.port[!i];
    else if ( snap.kind == K_IPI )
        ok = st.status == EVTCHNSTAT_ipi && st.vcpu == snap.vcpu;
    else
        ok = st.status == EVTCHNSTAT_virq && st.u.virq == VIRQ_DEBUG &&
             st.vcpu == snap.vcpu;
    if ( !ok )
        fail(c, "status of %s %sport %u (other end %u, vCPU %u): status %u, "
             "vCPU %u, %u %u", kind_name[snap.kind],
             snap.state == SL_UNBOUND ? "unbound " : "", snap.port[i],
             snap.port[!i], snap.vcpu, st.status, st.vcpu,
             st.u.interdomain.dom, st.u.interdomain.port);
}

/* set_priority: FIFO only (-ENOSYS on 2-level, as Xen). */
static void ev_set_priority(struct cpu *c)
{
    struct slot *s, snap;
    unsigned int i;
    evtchn_set_priority_t sp;
    long rc;

    if ( !slot_snap(c, &s, &snap, &i) )
        return;
    sp.port = snap.port[i];
    sp.priority = below(c, EVTCHN_FIFO_MAX_QUEUES);
    rc = evtchn_op(EVTCHNOP_set_priority, &sp);
    if ( rc != (fifo ? 0 : -XEN_ENOSYS) )
        fail(c, "set_priority of port %u: %ld", sp.port, rc);
}

/*
 * vCPU 0, the others done: each port unmasked, so what is pending is
 * delivered; every send that counted delivered; every slot closed; no
 * port delivered this round that wasn't bound.
 */
static void ev_end(struct cpu *c)
{
    uint64_t end = smp_time() + DELIVERY_NS;
    unsigned int i, j, p;
    long rc;

    for ( i = 0; i < NR_SLOTS; i++ )
        for ( j = 0; slots[i].state >= SL_UNBOUND && j < 2; j++ )
            if ( (j == 0 || (slots[i].kind == K_LOOP &&
                             slots[i].state == SL_BOUND)) &&
                 (rc = evtchn_unmask(slots[i].port[j])) )
                fail(c, "unmask of port %u at the end: %ld",
                     slots[i].port[j], rc);
    for ( i = 0; i < NR_SLOTS; i++ )
        for ( j = 0; slots[i].state == SL_BOUND && j < 2; j++ )
        {
            uint32_t need = slots[i].need[j];

            p = slots[i].port[j] % SMP_EVENT_PORTS;
            if ( !need )
                continue;
            while ( LOAD(smp_port_events[p]) < need && smp_time() < end )
                smp_sleep(100000);
            if ( LOAD(smp_port_events[p]) < need )
                fail(c, "%s port %u: sent to, never delivered (%u times, "
                     "wanted %u)", kind_name[slots[i].kind], p,
                     smp_port_events[p], need);
        }
    for ( i = 0; i < NR_SLOTS; i++ )
        if ( slots[i].state >= SL_UNBOUND )
        {
            slot_close(c, &slots[i]);
            slots[i].state = SL_FREE;
            slots[i].gen++;
        }
    for ( p = 0; p < SMP_EVENT_PORTS; p++ )
        if ( smp_port_events[p] != events_at_start[p] &&
             !(bound_now[p / 8] & (1u << (p % 8))) )
            fail(c, "port %u delivered %u times, never bound this round", p,
                 smp_port_events[p] - events_at_start[p]);
    if ( smp_bad_ports )
        fail(c, "%u events on ports past the event array",
             smp_bad_ports);
}

/* ----------------------------------------------------- vCPUs and time */

static unsigned int nmi_sent[NR_VCPUS], nmis_at_start[NR_VCPUS];

static unsigned int other(struct cpu *c)
{
    return (c->id + 1 + below(c, NR_VCPUS - 1)) % NR_VCPUS;
}

/*
 * VIRQ_TIMERs taken so far, before a timer is armed: one that is due at
 * once may be taken on the way back from the hypercall that arms it.
 */
static uint32_t timer_count(struct cpu *c)
{
    return LOAD(smp_port_events[timer_port[c->id]]);
}

static void armed(struct cpu *c, uint32_t before)
{
    c->armed = true;
    c->armed_count = before;
}

static void vc_timer(struct cpu *c)
{
    uint64_t when = below(c, 8) ? smp_time() + 50000 + below(c, 2000000) : 0;
    uint32_t before = timer_count(c);
    long rc = set_timer_op(when);

    if ( rc )
        fail(c, "set_timer_op: %ld", rc);
    else if ( when )
        armed(c, before);
    else
        c->armed = false;
}

/* Singleshot timers: its own (maybe already past), another's. */
static void vc_singleshot(struct cpu *c)
{
    vcpu_set_singleshot_timer_t ss = { .flags = below(c, 2) ?
                                       VCPU_SSHOTTMR_future : 0 };
    bool past = !below(c, 4);
    uint32_t before;
    long rc;

    switch ( below(c, 4) )
    {
    case 0:
        if ( (rc = vcpu_op(VCPUOP_stop_singleshot_timer, c->id, NULL)) )
            fail(c, "stop_singleshot_timer: %ld", rc);
        c->armed = false;
        return;
    case 1:
        rc = vcpu_op(below(c, 2) ? VCPUOP_set_singleshot_timer
                                 : VCPUOP_stop_singleshot_timer, other(c),
                     &ss);
        if ( rc != -XEN_EINVAL )
            fail(c, "another vCPU's singleshot timer: %ld", rc);
        return;
    }
    ss.timeout_abs_ns = past ? smp_time() - 1000000
                             : smp_time() + 50000 + below(c, 2000000);
    before = timer_count(c);
    rc = vcpu_op(VCPUOP_set_singleshot_timer, c->id, &ss);
    /* -ETIME: with the future flag, if the time had passed (it may). */
    if ( rc == -XEN_ETIME && (ss.flags & VCPU_SSHOTTMR_future) &&
         smp_time() > ss.timeout_abs_ns )
        return;
    if ( past && (ss.flags & VCPU_SSHOTTMR_future) )
        fail(c, "singleshot timer in the past, future flag: %ld", rc);
    else if ( rc )
        fail(c, "set_singleshot_timer (%lld ns ahead, flags %u): %ld",
             (long long)(ss.timeout_abs_ns - smp_time()), ss.flags, rc);
    else
        armed(c, before);
}

static void vc_periodic(struct cpu *c)
{
    struct vcpu_set_periodic_timer p = {
        .period_ns = below(c, 4) ? 2000000 + below(c, 3000000) : 500000,
    };
    unsigned int t = other(c);
    long rc;

    if ( below(c, 2) )
    {
        rc = vcpu_op(VCPUOP_set_periodic_timer, t, &p);
        if ( rc != (p.period_ns < 1000000 ? -XEN_EINVAL : 0) )
            fail(c, "set_periodic_timer(%llu ns) on vCPU %u: %ld",
                 (unsigned long long)p.period_ns, t, rc);
    }
    else if ( (rc = vcpu_op(VCPUOP_stop_periodic_timer, t, NULL)) )
        fail(c, "stop_periodic_timer on vCPU %u: %ld", t, rc);
}

/* Another's (or its own) runstate: a known state, its times growing. */
static void vc_runstate(struct cpu *c)
{
    struct vcpu_runstate_info rs;
    unsigned int t = below(c, NR_VCPUS), i;
    uint64_t sum = 0;
    long rc = vcpu_op(VCPUOP_get_runstate_info, t, &rs);

    if ( rc )
        return fail(c, "get_runstate_info of vCPU %u: %ld", t, rc);
    for ( i = 0; i < 4; i++ )
        sum += rs.time[i];
    if ( rs.state > RUNSTATE_offline ||
         (t == c->id && rs.state != RUNSTATE_running) )
        fail(c, "vCPU %u's runstate: state %d", t, rs.state);
    if ( sum < c->runstate_sum[t] )
        fail(c, "vCPU %u's runstate times went back: %llu < %llu", t,
             (unsigned long long)sum,
             (unsigned long long)c->runstate_sum[t]);
    c->runstate_sum[t] = sum;
}

static void vc_misc(struct cpu *c)
{
    unsigned int t = below(c, NR_VCPUS);
    long rc;

    switch ( below(c, 3) )
    {
    case 0:
        if ( (rc = vcpu_op(VCPUOP_is_up, t, NULL)) != 1 )
            fail(c, "is_up of vCPU %u: %ld", t, rc);
        break;
    case 1:
        if ( (rc = vcpu_op(VCPUOP_send_nmi, t, NULL)) )
            fail(c, "send_nmi to vCPU %u: %ld", t, rc);
        else
            STORE(nmi_sent[t], 1);
        break;
    default:
        if ( (rc = hypercall_sched_op(SCHEDOP_yield, NULL)) )
            fail(c, "SCHEDOP_yield: %ld", rc);
        break;
    }
}

/* SCHEDOP_poll on its timer port with a timeout; SCHEDOP_block on a timer. */
static void vc_wait(struct cpu *c)
{
    evtchn_port_t port = timer_port[c->id];
    uint32_t before;
    long rc;

    if ( below(c, 2) )
    {
        if ( (rc = sched_poll(&port, 1,
                              smp_time() + 100000 + below(c, 900000))) )
            fail(c, "SCHEDOP_poll: %ld", rc);
        return;
    }
    /*
     * As a kernel's idle loop: events masked from before the timer is
     * set, so one that fires at once stays pending and the block, which
     * unmasks them, returns at once (else it would sleep for ever).
     */
    smp_events_disable();
    before = timer_count(c);
    if ( (rc = set_timer_op(smp_time() + 100000 + below(c, 400000))) )
    {
        smp_events_enable();
        return fail(c, "set_timer_op before a block: %ld", rc);
    }
    armed(c, before);
    if ( (rc = hypercall_sched_op(SCHEDOP_block, NULL)) )
        fail(c, "SCHEDOP_block: %ld", rc);
}

/* vCPU 0, the others done: periodic timers off, last timers and NMIs in. */
static void vc_end(struct cpu *c)
{
    uint64_t end = smp_time() + DELIVERY_NS;
    unsigned int v;
    long rc;

    for ( v = 0; v < NR_VCPUS; v++ )
        if ( (rc = vcpu_op(VCPUOP_stop_periodic_timer, v, NULL)) )
            fail(c, "stop_periodic_timer on vCPU %u: %ld", v, rc);
    for ( v = 0; v < NR_VCPUS; v++ )
    {
        uint32_t *n = (uint32_t *)&smp_port_events[timer_port[v]];

        while ( cpus[v].armed && LOAD(*n) == cpus[v].armed_count &&
                smp_time() < end )
            smp_sleep(100000);
        if ( cpus[v].armed && LOAD(*n) == cpus[v].armed_count )
            fail(c, "vCPU %u: its last timer armed never fired", v);
        cpus[v].armed = false;
        while ( nmi_sent[v] && smp_nmis[v] == nmis_at_start[v] &&
                smp_time() < end )
            smp_sleep(100000);
        if ( nmi_sent[v] && smp_nmis[v] == nmis_at_start[v] )
            fail(c, "vCPU %u: sent an NMI, never took one", v);
        nmi_sent[v] = 0;
    }
}

/* ------------------------------------------------------ memory, console */

/* The gpfn a vCPU's populated frame gets (@v NR_VCPUS: the race's). */
#define BALLOON_PFN(v)  (start_info->nr_pages + 64 + (v))
#define LONG_LINE       240

static unsigned long race_mfn;      /* the frame four vCPUs give back */
static unsigned long race_xmfn;     /* the frame four vCPUs exchange */
static xen_pfn_t race_xout[NR_VCPUS];
static xen_ulong_t race_xdone[NR_VCPUS];
#define EXCHANGE_PFN(v) (start_info->nr_pages + 96 + (v))

/* vCPU @v's exchange of race_xmfn for a frame at its own gpfn. */
static long exchange_one(unsigned int v)
{
    xen_pfn_t in = race_xmfn;
    struct xen_memory_exchange x = {
        .in = { .nr_extents = 1, .domid = DOMID_SELF },
        .out = { .nr_extents = 1, .domid = DOMID_SELF },
    };
    long rc;

    race_xout[v] = EXCHANGE_PFN(v);
    set_xen_guest_handle(x.in.extent_start, &in);
    set_xen_guest_handle(x.out.extent_start, &race_xout[v]);
    rc = memory_op(XENMEM_exchange, &x);
    race_xdone[v] = x.nr_exchanged;
    return rc;
}

/* One frame back to the guest at @pfn: its mfn, or 0 after a failure. */
static unsigned long populate_one(struct cpu *c, unsigned long pfn)
{
    xen_pfn_t f = pfn;
    long rc = reservation_op(XENMEM_populate_physmap, &f, 1, 0, 0,
                             DOMID_SELF);

    if ( rc != 1 )
    {
        fail(c, "populate_physmap at pfn %#lx: %ld", pfn, rc);
        return 0;
    }
    if ( mfn_to_pfn(f) != pfn )
        fail(c, "populate_physmap: mfn %#lx's M2P entry %#lx, not %#lx",
             (unsigned long)f, mfn_to_pfn(f), pfn);
    return f;
}

static void mem_balloon(struct cpu *c)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };
    xen_pfn_t f = c->balloon_mfn;
    long rc, cur, max;

    if ( !c->ballooned )
    {
        rc = reservation_op(XENMEM_decrease_reservation, &f, 1, 0, 0,
                            DOMID_SELF);
        if ( rc != 1 )
            return fail(c, "decrease_reservation of its frame %#lx: %ld",
                        c->balloon_mfn, rc);
        /* Its M2P entry: ~0, or another vCPU's populate got it since. */
        c->ballooned = true;
        return;
    }
    if ( !(f = populate_one(c, BALLOON_PFN(c->id))) )
        return;
    c->balloon_mfn = f;
    c->ballooned = false;
    cur = current_reservation();
    max = memory_op(XENMEM_maximum_reservation, &md);
    if ( cur <= 0 || cur > max )
        fail(c, "reservation %ld of at most %ld", cur, max);
}

/*
 * The shared GDT frame: vCPU v's descriptors at GDT_IDX(v, 0..3), flat
 * DPL 3 data segments of a 16-bit limit (0: never written).
 */
#define GDT_IDX(v, k)   (16 + (v) * 4 + (k))
#define GDT_DATA(lim)   (UINT64_C(0x0040f20000000000) | (lim))
static unsigned long gdt_mfn;

static void gdt_load(struct cpu *c)
{
    long rc = hypercall_set_gdt(&gdt_mfn, 512);

    if ( rc )
        fail(c, "set_gdt of the shared frame: %ld", rc);
}

/* Its own descriptors as this CPU reads them: the limits it wrote. */
static void gdt_check_own(struct cpu *c, const char *after)
{
    unsigned int k;
    unsigned long lim;

    for ( k = 0; k < 4; k++ )
        if ( c->gdt_limit[k] &&
             (lim = lsl((GDT_IDX(c->id, k) << 3) | 3)) != c->gdt_limit[k] )
            fail(c, "after %s: descriptor %u's limit %#lx, not %#x", after,
                 GDT_IDX(c->id, k), lim, c->gdt_limit[k]);
}

static void gdt_update(struct cpu *c)
{
    unsigned int k = below(c, 4);
    uint16_t lim = 1 + below(c, 0xfffe);
    long rc;

    if ( below(c, 4) == 0 )
    {
        gdt_load(c);
        return gdt_check_own(c, "set_gdt");
    }
    rc = hypercall_update_descriptor(((uint64_t)gdt_mfn << 12) +
                                     GDT_IDX(c->id, k) * 8, GDT_DATA(lim));
    if ( rc )
        return fail(c, "update_descriptor of entry %u: %ld",
                    GDT_IDX(c->id, k), rc);
    c->gdt_limit[k] = lim;
    gdt_check_own(c, "update_descriptor");
}

/* Every vCPU, the others' updates done: its copy has all of them. */
static void gdt_end(struct cpu *c)
{
    unsigned int v, k;
    unsigned long lim;

    for ( v = 0; v < NR_VCPUS; v++ )
        for ( k = 0; k < 4; k++ )
            if ( cpus[v].gdt_limit[k] &&
                 (lim = lsl((GDT_IDX(v, k) << 3) | 3)) !=
                 cpus[v].gdt_limit[k] )
                fail(c, "vCPU %u's descriptor %u: limit %#lx here, %#x "
                     "written", v, GDT_IDX(v, k), lim, cpus[v].gdt_limit[k]);
}

/* A whole line of @len bytes through console_io, as early printk's. */
static void console_line(struct cpu *c, unsigned int len)
{
    char line[LONG_LINE];
    int n = snprintf(line, sizeof(line), "smp-stress: v%u step %lu ",
                     c->id, c->step);
    long rc;

    while ( n < (int)len - 1 && n < (int)sizeof(line) - 1 )
        line[n++] = 'a' + c->id;
    line[n++] = '\n';
    if ( (rc = hypercall_console_io(CONSOLEIO_write, n, line)) )
        fail(c, "console_io write of %d bytes: %ld", n, rc);
}

static void con_write(struct cpu *c)
{
    console_line(c, 40 + below(c, 40));
}

/* ------------------------------------------------------------- rounds */

static const struct op {
    const char *name;
    void (*fn)(struct cpu *c);
    unsigned int weight;
} ops[] = {
    { "mmu_update (shared)",         mmu_update_shared,  6 },
    { "mmu_update (private)",        mmu_update_private, 3 },
    { "pin",                         mmu_pin,            4 },
    { "unpin",                       mmu_unpin,          4 },
    { "update_va_mapping (private)", uvm_private,        3 },
    { "update_va_mapping (shared)",  uvm_shared,         2 },
    { "pin of a frame mapped here",  mmu_pin_mapped,     1 },
    { "mmuext flush",                mmu_flush,          2 },
    { "grant map",                   gnt_map,            6 },
    { "grant unmap",                 gnt_unmap,          6 },
    { "grant copy",                  gnt_copy,           4 },
    { "grant revoke",                gnt_revoke,         3 },
    { "event bind",                  ev_bind,            4 },
    { "event bind_interdomain",      ev_bindi,           3 },
    { "event close",                 ev_close,           4 },
    { "event send",                  ev_send,            6 },
    { "event unmask",                ev_unmask,          2 },
    { "event mask",                  ev_mask,            1 },
    { "event bind_vcpu",             ev_bind_vcpu,       2 },
    { "event status",                ev_status,          1 },
    { "event set_priority",          ev_set_priority,    1 },
    { "set_timer_op",                vc_timer,           2 },
    { "singleshot timer",            vc_singleshot,      2 },
    { "periodic timer",              vc_periodic,        2 },
    { "get_runstate_info",           vc_runstate,        1 },
    { "is_up, send_nmi, yield",      vc_misc,            3 },
    { "poll, block",                 vc_wait,            2 },
    { "memory balloon",              mem_balloon,        2 },
    { "console write",               con_write,          1 },
    { "update_descriptor, set_gdt",  gdt_update,         2 },
};

_Static_assert(ARRAY_SIZE(ops) <= NR_OPS, "NR_OPS too small");

static void run_steps(struct cpu *c)
{
    unsigned int total = 0, i, pick;

    for ( i = 0; i < ARRAY_SIZE(ops); i++ )
        total += ops[i].weight;
    for ( c->step = 0; c->step < nr_steps; c->step++ )
    {
        pick = below(c, total);
        for ( i = 0; pick >= ops[i].weight; i++ )
            pick -= ops[i].weight;
        c->opi = i;
        STORE(c->op, ops[i].name);
        ops[i].fn(c);
        ADD(op_steps[i], 1);
    }
    STORE(c->op, "its own cleanup");
    mmu_private_end(c);
    gnt_private_end(c);
}

/*
 * Wait for all vCPUs at the barrier named @what; a vCPU missing after
 * WAIT_NS is reported with what it was doing, and the test ends.
 */
static void sync(struct cpu *c, const char *what)
{
    unsigned long late;
    unsigned int v;

    STORE(c->op, what);
    if ( smp_barrier_wait(&barrier, NR_VCPUS, WAIT_NS, &late) )
        return;
    if ( __atomic_exchange_n(&ending, 1, __ATOMIC_SEQ_CST) )
        for ( ;; )
            smp_sleep(1000000000);
    for ( v = 0; v < NR_VCPUS; v++ )
        if ( late & (1UL << v) )
            test_fail("round %u: vCPU %u stopped making progress: step %lu "
                      "of %u, in %s (vCPU %u waited %llu s at \"%s\")",
                      LOAD(round_no), v, LOAD(cpus[v].step), nr_steps,
                      LOAD(cpus[v].op), c->id,
                      (unsigned long long)(WAIT_NS / 1000000000), what);
    test_exit();
}

/*
 * The races: every vCPU makes the same call at once, its result in
 * race_rc[race][vCPU]; vCPU 0 checks them afterwards (race_end()).
 */
enum { R_PIN, R_UNPIN, R_VIRQ, R_BINDI, R_UNMAP, R_MAP, R_DECREASE,
       R_EXCHANGE, NR_RACES };
static long race_rc[NR_RACES][NR_VCPUS];
static grant_handle_t race_handle[NR_VCPUS + 1];    /* the last: vCPU 0's */
static evtchn_port_t race_port;

/*
 * Two races of sends: a storm of them from every vCPU into one vCPU's
 * ports (on FIFO, one queue, whose tail every send may move), and sends
 * against one vCPU closing the ports they go to (masked, so nothing
 * takes them off: a close clears a port's pending bit and a send after
 * it must set none).
 */
#define NR_STORM        8
#define STORM_SENDS     4
#define NR_CLOSING      12
static uint32_t storm_port[NR_STORM], closing_port[NR_CLOSING];
static unsigned int closed_upto, closer_done;

static long bind_ipi_masked(struct cpu *c, unsigned int t, bool masked)
{
    long port = evtchn_bind_ipi_on(t);

    if ( port <= 0 || port >= SMP_EVENT_PORTS )
    {
        fail(c, "bind_ipi for a race: %ld", port);
        return 0;
    }
    mark_bound(port);
    if ( masked )
        evtchn_mask(port);
    else
        check_rc(evtchn_unmask(port), 0);
    return port;
}

/* vCPU 0 before the races: ports, and a mapping, to fight over. */
static void race_prepare(struct cpu *c)
{
    unsigned int t = LOAD(round_no) % NR_VCPUS, i;
    struct gnttab_map_grant_ref op;
    long port = evtchn_alloc_unbound_self();
    int16_t st;

    if ( port <= 0 )
        fail(c, "alloc_unbound for the race: %ld", port);
    race_port = port > 0 ? port : 0;
    mark_bound(race_port);
    st = gnt_map1(&op, GNT_SELF_ID, RACE_REF, GNTMAP_host_map,
                  (unsigned long)race_gwin[NR_VCPUS]);
    if ( st )
        fail(c, "map for the race: status %d", st);
    race_handle[NR_VCPUS] = op.handle;
    for ( i = 0; i < NR_STORM; i++ )
        storm_port[i] = bind_ipi_masked(c, t, false);
    for ( i = 0; i < NR_CLOSING; i++ )
        closing_port[i] = bind_ipi_masked(c, i % NR_VCPUS, true);
    closed_upto = closer_done = 0;
}

/* Every vCPU sends to every storm port, each starting at another. */
static void race_storm(struct cpu *c)
{
    unsigned int i, j;
    long rc;

    for ( j = 0; j < STORM_SENDS; j++ )
        for ( i = 0; i < NR_STORM; i++ )
            if ( (rc = evtchn_send(storm_port[(i + c->id) % NR_STORM])) )
                fail(c, "send in the storm to port %u: %ld",
                     storm_port[(i + c->id) % NR_STORM], rc);
}

/*
 * One vCPU closes the closing ports in turn; the others send to the one
 * it closes now and the one before, until it is done: 0 while a port is
 * open, -EINVAL once closed (and from then on: nothing binds meanwhile).
 */
static void race_closes(struct cpu *c)
{
    unsigned int i, k, upto, passes = 0;
    long rc;

    if ( c->id == (LOAD(round_no) + 1) % NR_VCPUS )
    {
        for ( i = 0; i < NR_CLOSING; i++ )
        {
            if ( (rc = evtchn_close(closing_port[i])) )
                fail(c, "close of port %u in the race: %ld",
                     closing_port[i], rc);
            STORE(closed_upto, i + 1);
        }
        STORE(closer_done, 1);
        return;
    }
    while ( !LOAD(closer_done) && passes++ < 400 )
        for ( k = 0; k < 2; k++ )
        {
            upto = LOAD(closed_upto);
            if ( (i = upto - k) >= NR_CLOSING )
                continue;
            rc = evtchn_send(closing_port[i]);
            if ( (rc && rc != -XEN_EINVAL) || (!rc && i < upto) )
                fail(c, "send to port %u while it closed: %ld (%s)",
                     closing_port[i], rc, i < upto ? "closed before"
                                                   : "open");
        }
}

/*
 * vCPU 0 after the sends' races: no closed port pending; each storm
 * port still delivers a send (a port a storm lost from its queue stays
 * linked and never does), then closed.
 */
static void race_sends_end(struct cpu *c)
{
    uint64_t end = smp_time() + DELIVERY_NS;
    unsigned int i;
    uint32_t before;
    long rc;

    for ( i = 0; i < NR_CLOSING; i++ )
        if ( evtchn_test_pending(closing_port[i]) )
            fail(c, "port %u pending after its close", closing_port[i]);
    for ( i = 0; i < NR_STORM; i++ )
    {
        before = LOAD(smp_port_events[storm_port[i]]);
        if ( (rc = evtchn_send(storm_port[i])) )
            fail(c, "send to port %u after the storm: %ld", storm_port[i],
                 rc);
        while ( LOAD(smp_port_events[storm_port[i]]) == before &&
                smp_time() < end )
            smp_sleep(100000);
        if ( LOAD(smp_port_events[storm_port[i]]) == before )
            fail(c, "port %u never delivered after the storm (%s)",
                 storm_port[i], evtchn_test_pending(storm_port[i])
                                ? "pending" : "not pending");
        if ( (rc = evtchn_close(storm_port[i])) )
            fail(c, "close of storm port %u: %ld", storm_port[i], rc);
    }
}

/*
 * Timers of one vCPU from all four: the others set and stop its
 * periodic timer, it sets its own singleshot one, every call changing
 * that vCPU's timers at once (Xen: its CPU's timer lock).
 */
#define TIMER_RACE_OPS  8

static void race_timers(struct cpu *c)
{
    unsigned int t = (LOAD(round_no) + 2) % NR_VCPUS, j;
    struct vcpu_set_periodic_timer p;
    vcpu_set_singleshot_timer_t ss = { .flags = 0 };
    long rc;

    for ( j = 0; j < TIMER_RACE_OPS; j++ )
    {
        if ( c->id == t )
        {
            ss.timeout_abs_ns = smp_time() + 100000 + below(c, 400000);
            c->armed_count = timer_count(c);
            rc = vcpu_op(VCPUOP_set_singleshot_timer, t, &ss);
        }
        else if ( j & 1 )
            rc = vcpu_op(VCPUOP_stop_periodic_timer, t, NULL);
        else
        {
            p.period_ns = 1000000 + below(c, 1000000);
            rc = vcpu_op(VCPUOP_set_periodic_timer, t, &p);
        }
        if ( rc )
            fail(c, "timer op %u of the race on vCPU %u: %ld", j, t, rc);
    }
}

/* Wait until @n counts past @before; false after DELIVERY_NS. */
static bool count_passes(const volatile uint32_t *n, uint32_t before)
{
    uint64_t end = smp_time() + DELIVERY_NS;

    while ( (int32_t)(*n - before) <= 0 && smp_time() < end )
        smp_sleep(100000);
    return (int32_t)(*n - before) > 0;
}

/*
 * After the race of timers, every vCPU's timers still work: the last
 * singleshot timer the vCPU fought over set fires, then each vCPU's
 * own; and (vCPU 0 checks) a periodic timer set on the vCPU fought over
 * ticks, and stops when stopped.
 */
static void race_timers_end(struct cpu *c)
{
    unsigned int t = (LOAD(round_no) + 2) % NR_VCPUS;
    struct vcpu_set_periodic_timer p = { .period_ns = 2000000 };
    const volatile uint32_t *n = &smp_port_events[timer_port[c->id]];
    uint32_t before;
    long rc;

    if ( c->id == t )
    {
        if ( !count_passes(n, c->armed_count) )
            fail(c, "its last singleshot timer of the race never fired");
        if ( (rc = vcpu_op(VCPUOP_stop_periodic_timer, t, NULL)) )
            fail(c, "stop_periodic_timer after the race: %ld", rc);
    }
    before = *n;
    if ( (rc = set_timer_op(smp_time() + 500000)) )
        fail(c, "set_timer_op after the race of timers: %ld", rc);
    else if ( !count_passes(n, before) )
        fail(c, "its timer never fired after the race of timers");
    sync(c, "race: own timers after the race");
    if ( c->id )
        return;

    n = &smp_port_events[timer_port[t]];
    before = *n;
    if ( (rc = vcpu_op(VCPUOP_set_periodic_timer, t, &p)) )
        return fail(c, "set_periodic_timer after the race: %ld", rc);
    if ( !count_passes(n, before) || !count_passes(n, before + 1) ||
         !count_passes(n, before + 2) )
        fail(c, "vCPU %u's periodic timer set after the race: %u ticks",
             t, *n - before);
    if ( (rc = vcpu_op(VCPUOP_stop_periodic_timer, t, NULL)) )
        return fail(c, "stop_periodic_timer after the race: %ld", rc);
    smp_sleep(5000000);
    before = *n;
    smp_sleep(30000000);
    if ( *n - before > 1 )
        fail(c, "vCPU %u's periodic timer ticked %u times in 30 ms after "
             "its stop", t, *n - before);
}

static void race_phase(struct cpu *c)
{
    unsigned int id = c->id, t = LOAD(round_no) % NR_VCPUS, v, w;
    evtchn_bind_interdomain_t b = {
        .remote_dom = DOMID_SELF, .remote_port = race_port,
    };
    struct gnttab_map_grant_ref op;
    uint16_t flags;
    xen_pfn_t f;
    long rc;

    race_rc[R_PIN][id] = pin_table(1, race_l1);
    sync(c, "race: pins of one L1");
    race_rc[R_UNPIN][id] = unpin_table(race_l1);
    sync(c, "race: unpins of one L1");
    race_rc[R_VIRQ][id] = evtchn_bind_virq_on(VIRQ_DEBUG, t);
    sync(c, "race: bind_virq");
    rc = evtchn_op(EVTCHNOP_bind_interdomain, &b);
    race_rc[R_BINDI][id] = rc ? rc : (long)b.local_port;
    if ( !rc )
        mark_bound(b.local_port);
    sync(c, "race: bind_interdomain");
    race_rc[R_UNMAP][id] = gnt_unmap1((unsigned long)race_gwin[NR_VCPUS],
                                      race_handle[NR_VCPUS], 0);
    sync(c, "race: unmaps of one handle");

    race_rc[R_MAP][id] = gnt_map1(&op, GNT_SELF_ID, RACE_REF,
                                  GNTMAP_host_map,
                                  (unsigned long)race_gwin[id]);
    race_handle[id] = op.handle;
    sync(c, "race: maps of one ref");
    if ( !id )
    {
        for ( v = 0; v < NR_VCPUS; v++ )
        {
            if ( race_rc[R_MAP][v] )
                fail(c, "race of maps of one ref: vCPU %u: status %ld", v,
                     race_rc[R_MAP][v]);
            for ( w = 0; w < v; w++ )
                if ( !race_rc[R_MAP][v] && !race_rc[R_MAP][w] &&
                     race_handle[v] == race_handle[w] )
                    fail(c, "race of maps of one ref: vCPUs %u and %u got "
                         "handle %u", w, v, race_handle[v]);
        }
        flags = gnt_v1[RACE_REF].flags;
        if ( (flags & (GTF_reading | GTF_writing)) !=
             (GTF_reading | GTF_writing) )
            fail(c, "ref %u mapped 4 times: flags %#x", RACE_REF, flags);
    }
    sync(c, "race: maps checked");
    if ( !race_rc[R_MAP][id] &&
         (rc = gnt_unmap1((unsigned long)race_gwin[id], race_handle[id], 0)) )
        fail(c, "unmap after the race of maps: status %ld", rc);

    race_storm(c);
    sync(c, "race: a storm of sends");
    race_closes(c);
    sync(c, "race: sends and closes");
    if ( !id )
        race_sends_end(c);
    sync(c, "race: sends checked");

    race_timers(c);
    sync(c, "race: timers");
    race_timers_end(c);
    sync(c, "race: timers checked");

    /* The exchange first: its new frame may be any free one. */
    race_rc[R_EXCHANGE][id] = exchange_one(id);
    sync(c, "race: XENMEM_exchange of one frame");
    f = race_mfn;
    race_rc[R_DECREASE][id] = reservation_op(XENMEM_decrease_reservation,
                                             &f, 1, 0, 0, DOMID_SELF);
    sync(c, "race: decrease_reservation of one frame");
    console_line(c, LONG_LINE);
}

/* Exactly one vCPU won @race (0, or a port), the others got @lose. */
static void one_winner(struct cpu *c, unsigned int race, const char *what,
                       long lose, bool port)
{
    unsigned int v, wins = 0;
    long rc;

    for ( v = 0; v < NR_VCPUS; v++ )
    {
        rc = race_rc[race][v];
        if ( port ? rc > 0 : rc == 0 )
            wins++;
        else if ( rc != lose )
            fail(c, "race of %s: vCPU %u got %ld", what, v, rc);
    }
    if ( wins != 1 )
        fail(c, "race of %s: %u vCPUs won", what, wins);
}

/* vCPU 0 after the races: one winner each, ports closed, nothing in use. */
static void race_end(struct cpu *c)
{
    unsigned int v;
    long rc;

    one_winner(c, R_PIN, "pins of one L1", -XEN_EINVAL, false);
    one_winner(c, R_UNPIN, "unpins of one L1", -XEN_EINVAL, false);
    one_winner(c, R_VIRQ, "bind_virq(VIRQ_DEBUG) on one vCPU", -XEN_EEXIST,
               true);
    one_winner(c, R_BINDI, "bind_interdomain to one port", -XEN_EINVAL,
               true);
    one_winner(c, R_UNMAP, "unmaps of one handle", GNTST_bad_handle, false);
    one_winner(c, R_DECREASE, "decrease_reservation of one frame", 0, true);
    if ( mfn_to_pfn(race_mfn) != ~0UL )
        fail(c, "frame %#lx given back in the race: M2P entry %#lx",
             race_mfn, mfn_to_pfn(race_mfn));
    one_winner(c, R_EXCHANGE, "XENMEM_exchange of one frame", -XEN_EINVAL,
               false);
    if ( mfn_to_pfn(race_xmfn) != ~0UL )
        fail(c, "frame %#lx exchanged in the race: M2P entry %#lx",
             race_xmfn, mfn_to_pfn(race_xmfn));
    for ( v = 0; v < NR_VCPUS; v++ )
        if ( race_xdone[v] != !race_rc[R_EXCHANGE][v] )
            fail(c, "race of exchanges: vCPU %u: nr_exchanged %lu, rc %ld",
                 v, (unsigned long)race_xdone[v], race_rc[R_EXCHANGE][v]);
        else if ( !race_rc[R_EXCHANGE][v] )
        {
            if ( mfn_to_pfn(race_xout[v]) != EXCHANGE_PFN(v) )
                fail(c, "race of exchanges: new mfn %#lx's M2P entry %#lx",
                     (unsigned long)race_xout[v],
                     mfn_to_pfn(race_xout[v]));
            race_xmfn = race_xout[v];   /* the next round's */
        }
    race_mfn = populate_one(c, BALLOON_PFN(NR_VCPUS)) ?: race_mfn;
    if ( exinfo_vector(probe_read(race_gwin[NR_VCPUS])) != X86_EXC_PF )
        fail(c, "the window still reads after the race of unmaps");
    for ( v = 0; v < NR_VCPUS; v++ )
    {
        if ( race_rc[R_VIRQ][v] > 0 &&
             (rc = evtchn_close(race_rc[R_VIRQ][v])) )
            fail(c, "close of the race's VIRQ port: %ld", rc);
        if ( race_rc[R_BINDI][v] > 0 &&
             (rc = evtchn_close(race_rc[R_BINDI][v])) )
            fail(c, "close of the race's loopback port: %ld", rc);
    }
    if ( race_port && (rc = evtchn_close(race_port)) )
        fail(c, "close of the race's unbound port: %ld", rc);
    if ( gnt_v1[RACE_REF].flags & (GTF_reading | GTF_writing) )
        fail(c, "ref %u still in use after the race", RACE_REF);
}

/* vCPU 0 before a round: the event ABI, and what the checks count from. */
static void round_begin(struct cpu *c, unsigned int r)
{
    unsigned int p, v;
    long rc;

    STORE(round_no, r);
    if ( r == nr_rounds / 2 && !fifo )
    {
        if ( (rc = smp_fifo_init(NR_VCPUS)) )
            test_fail("the FIFO ABI for %u vCPUs: %ld", NR_VCPUS, rc);
        else
            printf("smp-stress: rounds %u on: FIFO events\n", r);
        fifo = !rc;
    }
    memset(bound_now, 0, sizeof(bound_now));
    mark_bound(1);                  /* xenstore and console: the shim's */
    mark_bound(2);
    for ( v = 0; v < NR_VCPUS; v++ )
    {
        mark_bound(timer_port[v]);
        nmis_at_start[v] = smp_nmis[v];
    }
    for ( p = 0; p < SMP_EVENT_PORTS; p++ )
        events_at_start[p] = smp_port_events[p];
}

/* Every vCPU's rounds; vCPU 0 also checks and cleans up between phases. */
static void rounds(struct cpu *c)
{
    unsigned int r;
    uint64_t t0, t1, t2;

    for ( r = 0; r < nr_rounds && !LOAD(nr_failures); r++ )
    {
        if ( !c->id )
            round_begin(c, r);
        c->rng = (cmdline_ulong("seed", 1) + 1) * 0x9e3779b97f4a7c15ULL ^
                 ((uint64_t)r << 8 | c->id) * 0xbf58476d1ce4e5b9ULL;
        c->rng |= 1;
        sync(c, "round start");
        t0 = smp_time();
        smp_events_enable();
        run_steps(c);
        sync(c, "steps done");
        t1 = smp_time();
        if ( !c->id )
        {
            STORE(c->op, "end-of-round checks");
            mmu_end(c);
            gnt_end(c);
            vc_end(c);
            ev_end(c);
            race_prepare(c);
        }
        sync(c, "end-of-round checks");
        gdt_end(c);
        t2 = smp_time();
        race_phase(c);
        sync(c, "race done");
        if ( !c->id )
        {
            race_end(c);
            printf("smp-stress: round %u%s: %llu ms of steps, %llu of "
                   "checks, %llu of races\n", r, fifo ? " (FIFO)" : "",
                   (unsigned long long)((t1 - t0) / 1000000),
                   (unsigned long long)((t2 - t1) / 1000000),
                   (unsigned long long)((smp_time() - t2) / 1000000));
        }
        smp_events_disable();
        sync(c, "round end");
    }
}

static void vcpu_main(unsigned int id)
{
    struct cpu *c = &cpus[id];
    long rc;

    if ( (rc = smp_event_init()) )
        fail(c, "event callbacks: %ld", rc);
    gdt_load(c);
    rounds(c);
}

/* ------------------------------------------------------------- set-up */

static void setup_mmu(void)
{
    unsigned int i;

    for ( i = 0; i < NR_DATA; i++ )
    {
        data_mfn[i] = alloc_frame();
        frame_set_pte(data_mfn[i], 0, DATA_TAG(i));
    }
    sl1 = alloc_frame();
    sl2 = alloc_frame();
    race_l1 = alloc_frame();
    race_mfn = alloc_frame();
    race_xmfn = alloc_frame();
    gdt_mfn = alloc_frame();
    frame_set_pte(race_l1, 0, pte_make(data_mfn[0], PTE_RO));
    frame_set_pte(race_l1, 1, pte_make(data_mfn[1], PTE_RW));
    for ( i = 0; i < NR_VCPUS; i++ )
    {
        pl1[i] = alloc_frame();
        pl2[i] = alloc_frame();
        cpus[i].balloon_mfn = alloc_frame();
        poke((unsigned long)pwin[i], WIN_MARK(i));
    }
    poke((unsigned long)swin, WIN_MARK(NR_VCPUS));
}

static void setup_grants(void)
{
    unsigned int i;

    gnt_setup(1);
    for ( i = 0; i < PAGE_SIZE; i++ )
        gframe_image[i] = image_byte(i);
    for ( i = 0; i < NR_GFRAMES; i++ )
    {
        gframe[i] = alloc_frame();
        gframe_write(i);
    }
    for ( i = 0; i < NR_REFS; i++ )
    {
        grefs[i].frame = i % NR_GFRAMES;
        grefs[i].ro = i % 3 == 2;
        gnt_grant(1, REF0 + i, GNT_SELF_ID, gframe[grefs[i].frame],
                  grefs[i].ro ? GTF_readonly : 0);
    }
    gnt_grant(1, RACE_REF, GNT_SELF_ID, gframe[0], 0);
    for ( i = 0; i < NR_GWIN; i++ )
        check_rc(unmap_va((unsigned long)gwin[i]), 0);
    for ( i = 0; i <= NR_VCPUS; i++ )
        check_rc(unmap_va((unsigned long)race_gwin[i]), 0);
    for ( i = 0; i < NR_VCPUS; i++ )
        cpus[i].held_ref = -1;
}

static bool setup_events(void)
{
    unsigned int v;
    long port;

    for ( v = 0; v < NR_VCPUS; v++ )
    {
        port = evtchn_bind_virq_on(VIRQ_TIMER, v);
        if ( port <= 0 || port >= SMP_EVENT_PORTS )
        {
            test_error("bind_virq(VIRQ_TIMER, %u): %ld", v, port);
            return false;
        }
        timer_port[v] = port;
        check_rc(evtchn_unmask(port), 0);
    }
    return true;
}

/* The windows back to their own frames, for what runs after. */
static void teardown(void)
{
    unsigned int i;

    for ( i = 0; i < NR_GWIN; i++ )
        check_rc(remap_initial((unsigned long)gwin[i]), 0);
    for ( i = 0; i <= NR_VCPUS; i++ )
        check_rc(remap_initial((unsigned long)race_gwin[i]), 0);
}

void test_main(void)
{
    unsigned int v;
    long rc;

    nr_rounds = cmdline_ulong("rounds", 24);
    nr_steps = cmdline_ulong("steps", 60);
    if ( event_init() || smp_event_init() )
        return test_error("event callbacks");
    if ( smp_nr_vcpus(NR_VCPUS) < NR_VCPUS )
        return test_skip("needs %u vCPUs, has %u", NR_VCPUS,
                         smp_nr_vcpus(NR_VCPUS));
    for ( v = 0; v < NR_VCPUS; v++ )
        cpus[v].id = v;
    setup_mmu();
    gdt_load(&cpus[0]);
    setup_grants();
    if ( !setup_events() )
        return;
    printf("smp-stress: %u rounds of %u steps on %u vCPUs, seed %lu\n",
           nr_rounds, nr_steps, NR_VCPUS, cmdline_ulong("seed", 1));
    for ( v = 1; v < NR_VCPUS; v++ )
        if ( (rc = smp_start_vcpu(v, vcpu_main)) )
            return test_error("starting vCPU %u: %ld", v, rc);

    rounds(&cpus[0]);
    for ( v = 0; v < ARRAY_SIZE(ops); v++ )
        printf("smp-stress: %-28s %5u steps, %4u refused in races\n",
               ops[v].name, op_steps[v], op_raced[v]);
    if ( LOAD(nr_failures) )
        return;
    teardown();
    printf("smp-stress: done\n");
    test_success();
}
