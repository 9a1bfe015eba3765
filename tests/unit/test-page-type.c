/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/mm/page-type.c: every operation from every starting state
 * against a reference model written from the header's contract, targeted
 * cases for the rules that keep the guest in, and a long seeded random run.
 */
#include "tests/unit/unit.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * ASSERT() marks a shim bug.  Here it is recorded instead of aborting, so
 * each one can be checked and the release build's behaviour after it (a
 * refusal that changes nothing) tested too; a forked child sets
 * assert_fatal to see it stop a debug build.
 */
#include "shim/lib.h"
#undef ASSERT
static unsigned int asserts_fired;
static bool assert_fatal;

static void unit_assert(bool ok)
{
    if ( ok )
        return;
    if ( assert_fatal )
        abort();
    asserts_fired++;
}
#define ASSERT(p) unit_assert(!!(p))

#include "../../pv/mm/page-type.c"

uint64_t tlbflush_clock = 1;
uint64_t tlbflush_time[NR_CPUS];

/* One thread: a wait would be for ever (the model skips those cases). */
void page_wait_relax(void)
{
    printf("  a wait with no one to wait for\n");
    abort();
}

#define MAX32 UINT32_MAX

/* ------------------------------------------------------ reference model */

struct st {
    uint32_t count, tc;
    uint64_t stamp;
    unsigned int type, owner, flags;
};

/* The states a frame can be in (page-type.c's table); BAD: none. */
enum cls { FREE, WRITABLE, SEGDESC, VALIDATING, VALIDATED, DEVALIDATING,
           BAD };

static bool pt(unsigned int t)
{
    return t == PGT_L1 || t == PGT_L2 || t == PGT_L3 || t == PGT_L4 ||
           t == PGT_L2_XEN;
}

static enum cls classify(const struct st *s)
{
    unsigned int pin = s->flags & PGF_PINNED;
    unsigned int stale = s->flags & PGF_STALE_TABLE;
    unsigned int locked = s->flags & PGF_LOCKED;
    unsigned int v = s->flags & ~(PGF_PINNED | PGF_STALE_TABLE | PGF_LOCKED);

    if ( s->type >= PGT_NR || s->owner > PGO_DYING || s->flags > 31 )
        return BAD;
    /* A page lock holds a reference beside another one. */
    if ( locked )
        return pt(s->type) && v == PGF_VALIDATED && !stale && s->tc >= 2
               ? VALIDATED : BAD;
    if ( s->type == PGT_NONE )
        return s->tc == 0 && !v && !pin ? FREE : BAD;
    if ( s->tc == 0 )
        return BAD;
    /* Any type is validating while its taker flushes (and checks). */
    if ( v == PGF_VALIDATING && s->tc == 1 && (!pin || pt(s->type)) )
        return VALIDATING;
    if ( stale )
        return BAD;
    if ( !pt(s->type) )
    {
        if ( s->flags )
            return BAD;
        return s->type == PGT_WRITABLE ? WRITABLE : SEGDESC;
    }
    if ( v == PGF_VALIDATED )
        return VALIDATED;
    if ( v == 0 && !pin && s->tc == 1 )
        return DEVALIDATING;
    return BAD;
}

enum op { OP_GET, OP_PUT, OP_GET_TYPE, OP_VALIDATED, OP_INVALID,
          OP_PUT_TYPE, OP_RELEASED, OP_PIN, OP_UNPIN, OP_DYING,
          OP_RELEASE, OP_LOCK, OP_UNLOCK, OP_NR };

static const char *const op_name[OP_NR] = {
    "get", "put", "get_type", "validated", "invalid", "put_type",
    "released", "pin", "unpin", "dying", "release", "lock", "unlock",
};

/*
 * Would @op wait for another CPU in state @s (any state, consistent or
 * not)?  A page lock held, or a put that would leave only its reference:
 * with one thread that is for ever, so those cases are not run here
 * (tests/unit/test-page-type-race.c runs them).
 */
static bool waits(const struct st *s, enum op op)
{
    if ( !(s->flags & PGF_LOCKED) )
        return false;
    return op == OP_LOCK ||
           ((op == OP_PUT_TYPE || op == OP_UNPIN) && s->tc == 2);
}

struct res {
    int ret;
    bool bug;       /* a shim bug: ASSERT, and nothing changes */
};

static struct res bug(int ret)
{
    return (struct res){ ret, true };
}

static struct res ok(int ret)
{
    return (struct res){ ret, false };
}

/* The clock as the model sees it: compared with the real one after. */
static uint64_t model_clock;

static void make_free(struct st *s, bool stamp)
{
    s->type = PGT_NONE;
    s->tc = 0;
    s->flags = 0;
    if ( stamp )
        s->stamp = model_clock++;
}

/*
 * get_type's rules, shared by pin (@pin: the flag in the same step).  A
 * new type is left validating unless it is writable and no page-table
 * walk may still reach the frame.
 */
static int model_get_type(struct st *s, enum cls c, unsigned int t,
                          unsigned int pin)
{
    unsigned int stale = s->flags & PGF_STALE_TABLE;

    if ( c == FREE )
    {
        s->type = t;
        s->tc = 1;
        if ( t == PGT_WRITABLE && !stale )
        {
            s->flags = 0;
            return PGT_OK;
        }
        s->flags = PGF_VALIDATING | stale | pin;
        return PGT_VALIDATE;
    }
    if ( s->type != t || s->tc == MAX32 )
        return -XEN_EINVAL;
    if ( c == VALIDATING || c == DEVALIDATING )
        return PGT_BUSY;
    s->tc++;
    s->flags |= pin;
    return PGT_OK;
}

/* @s is a consistent state (not BAD); @arg an owner or a type. */
static struct res model(struct st *s, enum op op, unsigned int arg)
{
    enum cls c = classify(s);
    bool pinned = s->flags & PGF_PINNED;
    int rc;

    switch ( op )
    {
    case OP_GET:
        if ( arg == PGO_NONE || arg == PGO_DYING || arg != s->owner ||
             s->count == 0 || s->count == MAX32 )
            return ok(0);
        s->count++;
        return ok(1);
    case OP_PUT:
        if ( s->count == 0 )
            return bug(0);
        /* A dying frame's last: stamped before (page_dying_stamp()). */
        if ( s->count == 1 && s->owner == PGO_DYING )
        {
            uint64_t now = model_clock++;

            s->stamp = s->stamp > now ? s->stamp : now;
        }
        s->count--;
        return ok(s->count == 0 && s->owner == PGO_DYING);
    case OP_GET_TYPE:
        if ( arg == PGT_NONE || arg >= PGT_NR )
            return bug(-XEN_EINVAL);
        return ok(model_get_type(s, c, arg, 0));
    case OP_VALIDATED:
        if ( c != VALIDATING )
            return bug(0);
        s->flags = (pt(s->type) ? PGF_VALIDATED : 0) |
                   (s->flags & PGF_PINNED);
        return ok(0);
    case OP_INVALID:
        if ( c != VALIDATING )
            return bug(0);
        rc = s->flags & PGF_STALE_TABLE;
        make_free(s, false);
        s->flags = rc;
        return ok(0);
    case OP_PUT_TYPE:
        if ( c == FREE || c == VALIDATING || c == DEVALIDATING ||
             s->tc <= (unsigned int)pinned + !!(s->flags & PGF_LOCKED) )
            return bug(0);
        if ( s->tc > 1 )
        {
            s->tc--;
            return ok(0);
        }
        if ( c == VALIDATED )
        {
            s->flags = 0;
            return ok(1);
        }
        make_free(s, true);
        return ok(0);
    case OP_RELEASED:
        if ( c != DEVALIDATING )
            return bug(0);
        /* The stamp is what its unlinks left (page_stamp_unlinked()). */
        make_free(s, false);
        s->flags = PGF_STALE_TABLE;
        return ok(0);
    case OP_PIN:
        if ( !pt(arg) )
            return bug(-XEN_EINVAL);
        if ( pinned )
            return ok(-XEN_EINVAL);
        return ok(model_get_type(s, c, arg, PGF_PINNED));
    case OP_UNPIN:
        /* A pin whose validation runs is no pin yet. */
        if ( !pinned || c == VALIDATING )
            return ok(-XEN_EINVAL);
        if ( c != VALIDATED )
            return bug(-XEN_EINVAL);
        s->flags &= ~PGF_PINNED;
        if ( s->tc > 1 )
        {
            s->tc--;
            return ok(0);
        }
        s->flags = 0;
        return ok(1);
    case OP_DYING:
        if ( s->owner != PGO_GUEST )
            return ok(0);
        s->owner = PGO_DYING;
        return ok(1);
    case OP_RELEASE:
        if ( s->owner != PGO_GUEST || s->count != 1 )
            return ok(0);
        s->owner = PGO_NONE;
        s->count = 0;
        return ok(1);
    case OP_LOCK:
        if ( c != VALIDATED || s->tc == MAX32 )
            return ok(0);
        s->tc++;
        s->flags |= PGF_LOCKED;
        return ok(1);
    case OP_UNLOCK:
        if ( !(s->flags & PGF_LOCKED) )
            return bug(0);
        s->tc--;
        s->flags &= ~PGF_LOCKED;
        return ok(0);
    default:
        abort();
    }
}

/* ----------------------------------------------- running the real thing */

static void to_page(const struct st *s, struct page_info *pg)
{
    memset(pg, 0, sizeof(*pg));
    page_set_cinfo(pg, s->owner, s->count);
    page_set_tinfo(pg, s->type, s->tc, s->flags);
    pg->flush_stamp = s->stamp;
    pg->linear_pt_count = -7;   /* not ours: must stay as it is */
}

static void from_page(const struct page_info *pg, struct st *s)
{
    s->count = page_count(pg);
    s->tc = page_type_count(pg);
    s->type = page_type(pg);
    s->owner = page_owner(pg);
    s->flags = page_flags(pg);
    s->stamp = pg->flush_stamp;
}

static int run_op(struct page_info *pg, enum op op, unsigned int arg)
{
    switch ( op )
    {
    case OP_GET:          return page_get(pg, arg);
    case OP_PUT:          return page_unref(pg);
    case OP_GET_TYPE:     return page_get_type(pg, arg);
    case OP_VALIDATED:    page_type_validated(pg); return 0;
    case OP_INVALID:      page_type_invalid(pg); return 0;
    case OP_PUT_TYPE:     return page_put_type(pg);
    case OP_RELEASED:     page_type_released(pg); return 0;
    case OP_PIN:          return page_pin(pg, arg);
    case OP_UNPIN:        return page_unpin(pg);
    case OP_DYING:        return page_change_owner(pg, PGO_GUEST, PGO_DYING);
    case OP_RELEASE:      return page_release(pg, PGO_GUEST);
    case OP_LOCK:         return page_lock(pg);
    case OP_UNLOCK:       page_unlock(pg); return 0;
    default:              abort();
    }
}

static bool same(const struct st *a, const struct st *b)
{
    return a->count == b->count && a->tc == b->tc && a->type == b->type &&
           a->owner == b->owner && a->flags == b->flags &&
           a->stamp == b->stamp;
}

static unsigned int mismatches;

static void report(const char *what, const struct st *in, enum op op,
                   unsigned int arg, const struct st *got, int ret)
{
    if ( ++mismatches > 10 )
        return;
    printf("  %s: %s(%u) on count %#x type %u tc %#x flags %#x owner %u "
           "stamp %#llx: got ret %d count %#x type %u tc %#x flags %#x "
           "stamp %#llx asserts %u\n", what, op_name[op], arg, in->count,
           in->type, in->tc, in->flags, in->owner,
           (unsigned long long)in->stamp, ret, got->count, got->type,
           got->tc, got->flags, (unsigned long long)got->stamp,
           asserts_fired);
}

/*
 * A counter moved by more than one, or wrapped.  A consistent refusal
 * never does either; used on states the model doesn't cover.
 */
static bool wrapped(uint32_t before, uint32_t after)
{
    if ( after == before || after == before + 1 )
        return before == MAX32 && after == 0;
    if ( after == before - 1 )
        return before == 0;
    /* A count dropped to 0 when a type ends: only from 1 or 0. */
    return !(after == 0 && before <= 1);
}

/* One operation on one state; returns true if the model covered it. */
static bool check_one(const struct st *in, enum op op, unsigned int arg)
{
    struct page_info pg;
    struct st want = *in, got;
    struct res r = { 0, false };
    bool covered = classify(in) != BAD;
    int ret;

    if ( waits(in, op) )
        return false;
    to_page(in, &pg);
    model_clock = tlbflush_clock;
    asserts_fired = 0;
    ret = run_op(&pg, op, arg);
    from_page(&pg, &got);
    if ( pg.linear_pt_count != -7 || (pg.count_info >> 40) ||
         (pg.type_info >> 48) )
        report("touched another field", in, op, arg, &got, ret);

    if ( !covered )
    {
        if ( wrapped(in->count, got.count) || wrapped(in->tc, got.tc) )
            report("wrapped", in, op, arg, &got, ret);
        return false;
    }

    r = model(&want, op, arg);
    if ( ret != r.ret || !same(&got, &want) || r.bug != (asserts_fired > 0) ||
         model_clock != tlbflush_clock )
        report(r.bug ? "bug case" : "mismatch", in, op, arg, &got, ret);
    if ( r.bug && !same(&got, in) )
        report("changed after ASSERT", in, op, arg, &got, ret);
    return true;
}

/* ------------------------------------------------------- the exhaustive */

static const uint32_t counts[] = { 0, 1, 2, MAX32 - 1, MAX32 };
static unsigned long exhaustive_checks, exhaustive_covered;

/* @arg values worth trying for @op: owners, types (valid or not), or 0. */
static unsigned int nr_args(enum op op)
{
    switch ( op )
    {
    case OP_GET:        return PGO_DYING + 2;
    case OP_GET_TYPE:
    case OP_PIN:        return PGT_NR + 1;
    default:            return 1;
    }
}

static void exhaustive(void)
{
    unsigned long i, nr = PGT_NR * ARRAY_SIZE(counts) * 32 * (PGO_DYING + 1) *
                          ARRAY_SIZE(counts) * 3;
    unsigned int op, arg;
    struct st s;

    mismatches = 0;
    tlbflush_clock = 0x1234;
    for ( i = 0; i < nr; i++ )
    {
        unsigned long x = i;

        s.type = x % PGT_NR;                    x /= PGT_NR;
        s.tc = counts[x % ARRAY_SIZE(counts)];  x /= ARRAY_SIZE(counts);
        s.flags = x % 32;                       x /= 32;
        s.owner = x % (PGO_DYING + 1);          x /= PGO_DYING + 1;
        s.count = counts[x % ARRAY_SIZE(counts)]; x /= ARRAY_SIZE(counts);
        /* Never stamped, stamped last, or stamped long ago. */
        s.stamp = (uint64_t[]){ 0, tlbflush_clock - 1, 7 }[x];

        for ( op = 0; op < OP_NR; op++ )
            for ( arg = 0; arg < nr_args(op); arg++ )
            {
                exhaustive_covered += check_one(&s, op, arg);
                exhaustive_checks++;
            }
    }
    CHECK_EQ(mismatches, 0);
    printf("  exhaustive: %lu checks, %lu from consistent states\n",
           exhaustive_checks, exhaustive_covered);
}

/* ---------------------------------------------------- targeted cases */

static struct page_info guest_frame(void)
{
    struct page_info pg = { .flush_stamp = 0 };

    page_set_cinfo(&pg, PGO_GUEST, 1);
    return pg;
}

static void owner_and_count(void)
{
    struct page_info pg = guest_frame();

    CHECK(page_get(&pg, PGO_GUEST));
    CHECK_EQ(page_count(&pg), 2);
    CHECK(!page_get(&pg, PGO_SHIM));
    CHECK(!page_get(&pg, PGO_NONE));
    page_set_cinfo(&pg, PGO_NONE, 2);
    CHECK(!page_get(&pg, PGO_NONE));
    page_set_cinfo(&pg, PGO_GUEST, 2);
    CHECK(!page_unref(&pg));
    CHECK(!page_unref(&pg));
    CHECK_EQ(page_count(&pg), 0);
    /* A frame whose last reference went can't be brought back. */
    CHECK(!page_get(&pg, PGO_GUEST));
    CHECK_EQ(page_count(&pg), 0);
}

static void writable_blocks_l1(void)
{
    struct page_info pg = guest_frame();

    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_OK);
    CHECK_EQ(page_get_type(&pg, PGT_L1), -XEN_EINVAL);
    CHECK_EQ(page_pin(&pg, PGT_L1), -XEN_EINVAL);
    CHECK_EQ(page_get_type(&pg, PGT_SEG_DESC), -XEN_EINVAL);
    CHECK(!(page_flags(&pg) & PGF_PINNED));
    CHECK(!page_put_type(&pg));
    CHECK_EQ(page_type(&pg), PGT_NONE);
    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_VALIDATE);
    page_type_validated(&pg);
    CHECK_EQ(page_flags(&pg), PGF_VALIDATED);
}

static void l1_blocks_writable(void)
{
    struct page_info pg = guest_frame();

    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_VALIDATE);
    /* While validating: not writable; an L1 waits for the validation. */
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), -XEN_EINVAL);
    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_BUSY);
    CHECK_EQ(page_type_count(&pg), 1);
    page_type_validated(&pg);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), -XEN_EINVAL);
    CHECK_EQ(page_get_type(&pg, PGT_L2), -XEN_EINVAL);
    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_OK);
    CHECK_EQ(page_type_count(&pg), 2);
    CHECK(!page_put_type(&pg));
    CHECK(page_put_type(&pg));
    /* Devalidating: still no writable mapping until released. */
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), -XEN_EINVAL);
    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_BUSY);
    page_type_released(&pg);
    CHECK_EQ(page_flags(&pg), PGF_STALE_TABLE);
    /* A walk may still reach it: writable only after the taker flushes. */
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_VALIDATE);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_BUSY);
    page_type_validated(&pg);
    CHECK_EQ(page_flags(&pg), 0);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_OK);
    CHECK(!page_put_type(&pg));
    CHECK(!page_put_type(&pg));
    /* No longer stale: straight to writable. */
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_OK);
}

/* "Pin a table that maps itself writable": validation sees the refusal. */
static void table_mapping_itself_writable(void)
{
    struct page_info pg = guest_frame();

    CHECK_EQ(page_pin(&pg, PGT_L1), PGT_VALIDATE);
    CHECK_EQ(page_flags(&pg), PGF_VALIDATING | PGF_PINNED);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), -XEN_EINVAL);
    /* Another vCPU sees no pin to undo, nor one to add, meanwhile. */
    CHECK_EQ(page_unpin(&pg), -XEN_EINVAL);
    CHECK_EQ(page_pin(&pg, PGT_L1), -XEN_EINVAL);
    page_type_invalid(&pg);
    CHECK_EQ(page_type(&pg), PGT_NONE);
    CHECK_EQ(page_type_count(&pg), 0);
    CHECK_EQ(page_flags(&pg), 0);
}

static void pin_unpin(void)
{
    struct page_info pg = guest_frame();

    CHECK_EQ(page_unpin(&pg), -XEN_EINVAL);
    CHECK_EQ(page_pin(&pg, PGT_L4), PGT_VALIDATE);
    page_type_validated(&pg);
    CHECK_EQ(page_pin(&pg, PGT_L4), -XEN_EINVAL);
    CHECK_EQ(page_type_count(&pg), 1);
    CHECK_EQ(page_get_type(&pg, PGT_L4), PGT_OK);     /* e.g. CR3 */
    CHECK_EQ(page_unpin(&pg), 0);
    CHECK_EQ(page_unpin(&pg), -XEN_EINVAL);
    CHECK_EQ(page_pin(&pg, PGT_L4), PGT_OK);
    CHECK(!page_put_type(&pg));
    CHECK_EQ(page_unpin(&pg), 1);
    CHECK_EQ(page_type(&pg), PGT_L4);
    CHECK_EQ(page_flags(&pg), 0);
    page_type_released(&pg);
    CHECK_EQ(page_type(&pg), PGT_NONE);
    CHECK_EQ(page_type_count(&pg), 0);
}

/* page_lock(): a validated table's, one holder, never the last reference. */
static void page_locks(void)
{
    struct page_info pg = guest_frame();

    CHECK(!page_lock(&pg));                 /* no type */
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_OK);
    CHECK(!page_lock(&pg));                 /* not a page table */
    CHECK(!page_put_type(&pg));
    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_VALIDATE);
    CHECK(!page_lock(&pg));                 /* not validated yet */
    page_type_validated(&pg);
    CHECK(page_lock(&pg));
    CHECK_EQ(page_type_count(&pg), 2);
    CHECK_EQ(page_flags(&pg), PGF_VALIDATED | PGF_LOCKED);
    CHECK_EQ(page_get_type(&pg, PGT_L1), PGT_OK);   /* others still map it */
    CHECK(!page_put_type(&pg));
    /* The last reference but the lock's: the put waits for the unlock. */
    CHECK_EQ(put_type(&pg, false), PUT_WAIT);
    CHECK_EQ(page_type_count(&pg), 2);
    CHECK_EQ(page_pin(&pg, PGT_L1), PGT_OK);
    CHECK(!page_put_type(&pg));                     /* pin + lock left */
    CHECK_EQ(put_type(&pg, true), PUT_WAIT);        /* unpin: the same */
    CHECK_EQ(page_type_count(&pg), 2);
    page_unlock(&pg);
    CHECK_EQ(page_flags(&pg), PGF_VALIDATED | PGF_PINNED);
    CHECK_EQ(page_unpin(&pg), 1);
    page_type_released(&pg);
    CHECK_EQ(page_type(&pg), PGT_NONE);
}

static void seg_desc(void)
{
    struct page_info pg = guest_frame();

    /* Checked by its taker after a flush: validating until then. */
    CHECK_EQ(page_get_type(&pg, PGT_SEG_DESC), PGT_VALIDATE);
    CHECK_EQ(page_get_type(&pg, PGT_SEG_DESC), PGT_BUSY);
    page_type_validated(&pg);
    CHECK_EQ(page_flags(&pg), 0);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), -XEN_EINVAL);
    CHECK_EQ(page_get_type(&pg, PGT_L1), -XEN_EINVAL);
    CHECK_EQ(page_pin(&pg, PGT_L1), -XEN_EINVAL);
    CHECK(!page_put_type(&pg));
    CHECK_EQ(page_type(&pg), PGT_NONE);
}

static void flush_stamp(void)
{
    struct page_info pg = guest_frame();

    tlbflush_clock = 5;
    page_get_type(&pg, PGT_WRITABLE);
    page_get_type(&pg, PGT_WRITABLE);
    page_put_type(&pg);
    CHECK_EQ(pg.flush_stamp, 0);            /* a writable ref is left */
    CHECK_EQ(tlbflush_clock, 5);
    page_put_type(&pg);
    CHECK_EQ(pg.flush_stamp, 5);            /* the clock as it ended */
    CHECK_EQ(tlbflush_clock, 6);            /* and it moved on */

    /*
     * A page table's end keeps the latest of its unlinks' stamps, not the
     * clock (paging-structure caches reach it only through its entries):
     * the validation's caller starts it at 0 (validate_new_type()).
     */
    page_get_type(&pg, PGT_L2);
    pg.flush_stamp = 0;
    page_type_validated(&pg);
    page_stamp_unlinked(&pg, 0);            /* a pin, an undo: nothing */
    CHECK_EQ(pg.flush_stamp, 0);
    CHECK_EQ(tlbflush_clock, 6);
    page_stamp_unlinked(&pg, 3);            /* a parent's, older */
    CHECK_EQ(pg.flush_stamp, 3);
    page_stamp_unlinked(&pg, UNLINKED_NOW); /* a live entry: the clock */
    CHECK_EQ(pg.flush_stamp, 6);
    CHECK_EQ(tlbflush_clock, 7);
    page_stamp_unlinked(&pg, 4);            /* older: the max stays */
    CHECK_EQ(pg.flush_stamp, 6);
    CHECK(page_put_type(&pg));
    page_type_released(&pg);
    CHECK_EQ(pg.flush_stamp, 6);            /* kept, the clock untouched */
    CHECK_EQ(tlbflush_clock, 7);

    /* A failed validation used nothing: not stamped. */
    page_get_type(&pg, PGT_L3);
    page_type_invalid(&pg);
    CHECK_EQ(pg.flush_stamp, 6);
    CHECK_EQ(tlbflush_clock, 7);

    /* A table never reachable ends with no stamp: no flush to make. */
    page_get_type(&pg, PGT_L1);
    pg.flush_stamp = 0;
    page_type_validated(&pg);
    CHECK(page_put_type(&pg));
    page_type_released(&pg);
    CHECK_EQ(pg.flush_stamp, 0);

    /* 64 bits: no wrap in any guest's lifetime. */
    tlbflush_clock = (uint64_t)UINT32_MAX + 1;
    page_get_type(&pg, PGT_SEG_DESC);
    page_type_validated(&pg);
    page_put_type(&pg);
    CHECK_EQ(pg.flush_stamp, (uint64_t)UINT32_MAX + 1);
}

/*
 * tlbflush_filter(): a CPU is left to flush unless it noted a full flush
 * that began after the stamp was handed out (its time above the stamp);
 * a frame never stamped needs none, a CPU that never flushed needs one.
 */
static void flush_filter(void)
{
    struct page_info pg = guest_frame();
    unsigned long mask;

    memset(tlbflush_time, 0, sizeof(tlbflush_time));
    tlbflush_clock = 10;
    mask = 0xf;
    tlbflush_filter(&mask, pg.flush_stamp);
    CHECK_EQ(mask, 0);                      /* never typed */

    tlbflush_time[1] = tlbflush_begin();    /* flushed before the end */
    tlbflush_time[2] = tlbflush_begin();
    page_get_type(&pg, PGT_WRITABLE);
    page_put_type(&pg);                     /* stamped 10 */
    tlbflush_time[2] = tlbflush_begin();    /* flushed after: 11 */
    tlbflush_time[3] = 12;
    mask = 0xf;
    tlbflush_filter(&mask, pg.flush_stamp);
    CHECK_EQ(mask, 0x3);                    /* CPU 0 never, CPU 1 before */
    CHECK(tlbflush_needed(10, 10));         /* began with the stamp */
    CHECK(!tlbflush_needed(11, 10));
    CHECK(!tlbflush_needed(0, 0));

    /* A later end needs the CPUs' flushes again: a live unlink's. */
    page_get_type(&pg, PGT_L1);
    pg.flush_stamp = 0;
    page_type_validated(&pg);
    page_stamp_unlinked(&pg, UNLINKED_NOW); /* stamped 11 */
    CHECK(page_put_type(&pg));
    page_type_released(&pg);
    mask = 0xf;
    tlbflush_filter(&mask, pg.flush_stamp);
    CHECK_EQ(mask, 0x7);
    mask = 0x8;
    tlbflush_filter(&mask, pg.flush_stamp);
    CHECK_EQ(mask, 0);                      /* CPU 3 flushed at 12 */
}

/* A frame the guest gave back goes with its last reference, only then. */
static void dying_frame(void)
{
    struct page_info pg = guest_frame();

    CHECK(page_get(&pg, PGO_GUEST));        /* a mapping */
    CHECK(page_change_owner(&pg, PGO_GUEST, PGO_DYING));
    CHECK(!page_change_owner(&pg, PGO_GUEST, PGO_DYING));
    CHECK(!page_get(&pg, PGO_GUEST));       /* nothing new */
    CHECK(!page_get(&pg, PGO_DYING));
    CHECK(!page_unref(&pg));                /* the allocation's */
    CHECK(page_unref(&pg));                 /* the mapping's: it died */
    CHECK_EQ(page_count(&pg), 0);

    /* A guest frame's last reference going is no death. */
    pg = guest_frame();
    CHECK(!page_unref(&pg));
}

static void ceilings(void)
{
    struct page_info pg = guest_frame();

    page_set_cinfo(&pg, PGO_GUEST, MAX32 - 1);
    CHECK(page_get(&pg, PGO_GUEST));
    CHECK(!page_get(&pg, PGO_GUEST));
    CHECK_EQ(page_count(&pg), MAX32);

    page_set_tinfo(&pg, PGT_WRITABLE, MAX32 - 1, 0);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), PGT_OK);
    CHECK_EQ(page_get_type(&pg, PGT_WRITABLE), -XEN_EINVAL);
    CHECK_EQ(page_type_count(&pg), MAX32);

    page_set_tinfo(&pg, PGT_L3, MAX32, PGF_VALIDATED);
    CHECK_EQ(page_pin(&pg, PGT_L3), -XEN_EINVAL);
    CHECK_EQ(page_flags(&pg), PGF_VALIDATED);
    CHECK_EQ(page_type_count(&pg), MAX32);
}

/* In a debug build each shim bug stops the shim: see it in a child. */
static bool dies(enum op op, struct page_info pg)
{
    pid_t pid = fork();
    int status;

    if ( pid == 0 )
    {
        assert_fatal = true;
        run_op(&pg, op, PGT_L1);
        _exit(0);
    }
    if ( pid < 0 || waitpid(pid, &status, 0) != pid )
        return false;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void shim_bugs_stop_debug_builds(void)
{
    struct page_info none = guest_frame(), pg = guest_frame();

    page_set_cinfo(&none, PGO_GUEST, 0);
    CHECK(dies(OP_PUT, none));
    CHECK(dies(OP_PUT_TYPE, none));
    CHECK(dies(OP_VALIDATED, none));
    CHECK(dies(OP_RELEASED, none));
    CHECK(!dies(OP_GET_TYPE, pg));
    CHECK_EQ(page_type(&pg), PGT_NONE);            /* the child's, not ours */
}

/* ----------------------------------------------------- random sequence */

#define NR_FRAMES   4
#define NR_STEPS    400000

static uint64_t rng = 0x5eed0f9a9e7e1e55ULL;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32) % n;
}

/* The invariants, read straight off the frame. */
static bool invariants(const struct page_info *pg)
{
    unsigned int flags = page_flags(pg), type = page_type(pg);
    bool none = type == PGT_NONE;

    if ( none != (page_type_count(pg) == 0) )
        return false;
    if ( (flags & PGF_PINNED) && !is_page_table_type(type) )
        return false;
    if ( (flags & PGF_VALIDATED) && !is_page_table_type(type) )
        return false;
    if ( (flags & PGF_STALE_TABLE) && !none && !(flags & PGF_VALIDATING) )
        return false;
    return (flags & (PGF_VALIDATED | PGF_VALIDATING)) !=
           (PGF_VALIDATED | PGF_VALIDATING);
}

static void random_sequence(void)
{
    struct page_info pg[NR_FRAMES];
    struct st model_st[NR_FRAMES], got;
    unsigned int i, step, bugs = 0, seen[BAD + 1] = { 0 };

    mismatches = 0;
    tlbflush_clock = 1;
    for ( i = 0; i < NR_FRAMES; i++ )
    {
        /* The guest's frames, and one of the shim's. */
        model_st[i] = (struct st){
            .count = 1,
            .owner = i == NR_FRAMES - 1 ? PGO_SHIM : PGO_GUEST,
        };
        to_page(&model_st[i], &pg[i]);
    }

    for ( step = 0; step < NR_STEPS; step++ )
    {
        unsigned int f = rnd(NR_FRAMES), arg;
        struct st before;
        uint32_t count0;
        struct res r;
        enum op op;
        int ret;

        /* Reach the ceilings now and then. */
        if ( rnd(50000) == 0 )
        {
            model_st[f].count = MAX32 - rnd(2);
            page_set_cinfo(&pg[f], model_st[f].owner, model_st[f].count);
        }

        /* Mostly what a correct caller does; a shim bug one time in 8. */
        do {
            op = rnd(OP_NR);
            arg = 0;
            if ( op == OP_GET )
                arg = rnd(PGO_SHIM + 1);
            else if ( op == OP_GET_TYPE || op == OP_PIN )
                arg = 1 + rnd(PGT_NR - 1);
            before = model_st[f];
        } while ( waits(&model_st[f], op) ||
                  (model(&before, op, arg).bug && rnd(8)) );

        before = model_st[f];
        count0 = page_count(&pg[f]);
        model_clock = tlbflush_clock;
        r = model(&model_st[f], op, arg);
        asserts_fired = 0;
        ret = run_op(&pg[f], op, arg);
        from_page(&pg[f], &got);
        bugs += r.bug;
        seen[classify(&got)]++;
        if ( ret != r.ret || !same(&got, &model_st[f]) ||
             r.bug != (asserts_fired > 0) || !invariants(&pg[f]) ||
             model_clock != tlbflush_clock ||
             wrapped(count0, page_count(&pg[f])) ||
             wrapped(before.tc, page_type_count(&pg[f])) )
        {
            report("random", &before, op, arg, &got, ret);
            model_st[f] = got;
        }
    }
    for ( i = 0; i < BAD; i++ )
        CHECK(seen[i] > 1000);
    CHECK_EQ(seen[BAD], 0);
    CHECK_EQ(mismatches, 0);
    printf("  random: %u steps, %u of them shim bugs refused; states free %u "
           "writable %u seg_desc %u validating %u validated %u "
           "devalidating %u\n", NR_STEPS, bugs, seen[FREE], seen[WRITABLE],
           seen[SEGDESC], seen[VALIDATING], seen[VALIDATED],
           seen[DEVALIDATING]);
}

int main(void)
{
    RUN(exhaustive);
    RUN(owner_and_count);
    RUN(writable_blocks_l1);
    RUN(l1_blocks_writable);
    RUN(table_mapping_itself_writable);
    RUN(pin_unpin);
    RUN(page_locks);
    RUN(seg_desc);
    RUN(flush_stamp);
    RUN(flush_filter);
    RUN(dying_frame);
    RUN(ceilings);
    RUN(shim_bugs_stop_debug_builds);
    RUN(random_sequence);
    UNIT_EXIT();
}
