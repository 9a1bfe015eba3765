/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's memory balloon, as Xen's toolstack does `xl mem-set`
 * (libxl_set_memory_target()): the VM's virtio-balloon says how many
 * pages the host wants back (QEMU's `balloon`, libvirt's `virsh setmem`);
 * the shim gives it first the frames it had spare when the guest started
 * (beyond its own reserve), then asks the guest for the rest by its
 * xenstore `memory/target`, which Linux's xen-balloon driver follows with
 * XENMEM_decrease_reservation, and lowers the guest's maximum reservation
 * to the target and 1 MiB, so the guest cannot take the frames back.  The
 * frames the guest gives back go to the host a batch at a time as they
 * reach the allocator.  When the host wants less, the frames come back
 * from it first, then the target and maximum rise and the guest takes them
 * again (populate_physmap).  The host sees what it holds as `actual`.
 *
 * Its state is CPU 0's alone: the softirq (raised by the device's
 * interrupts and a retry timer) runs there under the backends' read lock,
 * as the console's and xenstore's do; the 'b' key reads it under the
 * write lock.  A frame the host holds is out of the allocator (and marked
 * in held_map) from the moment it is put in a batch until a batch has
 * given it back and the device has finished with that batch.
 */
#include "backends/balloon.h"
#include "backends/balloon/plan.h"
#include "backends/xenstore.h"
#include "drivers/balloon.h"
#include "drivers/dma.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/* Waiting for the guest's frames: looked for again after this, doubling. */
#define RETRY_MIN_NS    100000000ULL    /* 100 ms */
#define RETRY_MAX_NS    1000000000ULL   /* 1 s */

#define BITS_PER_WORD   (8 * sizeof(unsigned long))

/* Batches a softirq run hands over at most (16 MiB). */
#define RUN_BATCHES     16

static struct {
    bool on;
    unsigned long nr_pages;         /* the guest's as built: its static-max */
    unsigned long spare;            /* free beyond the reserve at the start */
    unsigned long held;             /* frames the host has (batches done) */
    unsigned long *held_map;        /* one bit a frame: the host's */
    unsigned long map_pfns;         /* frames the map covers */
    unsigned long cursor;           /* where the next take looks first */
    unsigned long target;           /* the guest's, as last written */
    /* The batch with the device. */
    uint32_t batch[BALLOON_BATCH];
    unsigned int batch_n;
    bool batch_give;
    struct timer retry;
    uint64_t retry_ns;
    unsigned long given, taken;     /* frames, ever */
} bal;

static bool is_held(unsigned long pfn)
{
    return bal.held_map[pfn / BITS_PER_WORD] & (1UL << (pfn % BITS_PER_WORD));
}

static void mark(unsigned long pfn, bool held)
{
    unsigned long bit = 1UL << (pfn % BITS_PER_WORD);

    if ( held )
        bal.held_map[pfn / BITS_PER_WORD] |= bit;
    else
        bal.held_map[pfn / BITS_PER_WORD] &= ~bit;
}

static void retry_fn(void *data)
{
    raise_softirq(BALLOON_SOFTIRQ);
}

/* The guest's target and maximum, as xl mem-set writes them. */
static void set_target(unsigned long target, unsigned long wanted)
{
    bal.target = target;
    pv_set_max_pages(balloon_max_pages(bal.nr_pages, target));
    xs_shim_writef("/local/domain/1/memory", "target", "%lu", target << 2);
    printk("d1: memory target %lu KiB (the host's balloon wants %lu KiB)\n",
           target << 2, wanted << 2);
}

/*
 * Up to @n free frames into a batch for the host; how many.  The map
 * covers every frame the allocator has (frames_max_pfn()) unless that
 * passes the ABI's 32-bit page numbers (16 TiB): one beyond stays free.
 */
static unsigned int fill_give(unsigned long n)
{
    unsigned long pfn, run, i;
    unsigned int k = 0;

    n = MIN(n, (unsigned long)BALLOON_BATCH);
    while ( k < n )
    {
        pfn = frames_alloc_run(n - k, &run);
        if ( pfn == INVALID_PFN )
            break;
        if ( pfn + run > bal.map_pfns )
        {
            frames_free(pfn, run);
            break;
        }
        for ( i = 0; i < run; i++ )
        {
            mark(pfn + i, true);
            bal.batch[k++] = pfn + i;
        }
    }
    return k;
}

/* Up to @n of the host's frames into a batch to take back; how many. */
static unsigned int fill_take(unsigned long n)
{
    unsigned long pfn = bal.cursor, seen;
    unsigned int k = 0;

    n = MIN(n, (unsigned long)BALLOON_BATCH);
    for ( seen = 0; seen < bal.map_pfns && k < n; seen++ )
    {
        if ( pfn >= bal.map_pfns )
            pfn = 0;
        if ( !bal.held_map[pfn / BITS_PER_WORD] )
        {
            /* A word of nothing held: on to the next one. */
            seen += BITS_PER_WORD - pfn % BITS_PER_WORD - 1;
            pfn += BITS_PER_WORD - pfn % BITS_PER_WORD;
            continue;
        }
        if ( is_held(pfn) )
            bal.batch[k++] = pfn;
        pfn++;
    }
    bal.cursor = pfn;
    return k;
}

/* The device has finished with the batch: count it, free what came back. */
static void batch_done(void)
{
    unsigned int i;

    if ( bal.batch_give )
    {
        bal.held += bal.batch_n;
        bal.given += bal.batch_n;
    }
    else
    {
        for ( i = 0; i < bal.batch_n; i++ )
        {
            mark(bal.batch[i], false);
            frames_free(bal.batch[i], 1);
        }
        bal.held -= bal.batch_n;
        bal.taken += bal.batch_n;
    }
    bal.batch_n = 0;
    balloon_dev_set_actual(bal.held);
}

static bool post(bool give, unsigned int n)
{
    unsigned int i;

    if ( !n )
        return false;
    bal.batch_give = give;
    bal.batch_n = n;
    if ( balloon_dev_post(give, bal.batch, n) )
        return true;
    /* The device took nothing (a broken queue): the frames stay ours. */
    printk(XENLOG_WARNING "balloon: the device refused a batch of %u "
           "pages: the host's balloon stops here\n", n);
    for ( i = 0; give && i < n; i++ )
    {
        mark(bal.batch[i], false);
        frames_free(bal.batch[i], 1);
    }
    bal.batch_n = 0;
    bal.on = false;
    return false;
}

/*
 * One step toward the host's wish: true if a batch went to the device.
 * The guest's target goes down before frames go to the host (the guest
 * gives them back first), and up once the host's frames are back.
 */
static bool step(void)
{
    unsigned long wanted, target, n;

    /* No more than there is to give: the guest's and the spare frames. */
    wanted = MIN(balloon_dev_wanted(), bal.nr_pages + bal.spare);
    target = balloon_guest_target(bal.nr_pages, bal.spare, wanted);
    if ( target < bal.target )
        set_target(target, wanted);

    n = balloon_to_give(bal.held, wanted,
                        bal.spare + bal.nr_pages - MIN(pv_tot_pages(),
                                                       bal.nr_pages),
                        frames_free_count(), PV_SHIM_RESERVE_PAGES / 2);
    if ( n && post(true, fill_give(n)) )
    {
        bal.retry_ns = RETRY_MIN_NS;
        return true;
    }
    n = balloon_to_take(bal.held, wanted);
    if ( n )
        return post(false, fill_take(n));
    if ( target > bal.target )
        set_target(target, wanted);
    /* The guest still owes frames: look again, less often each time. */
    if ( bal.held < wanted )
    {
        set_timer(&bal.retry, NOW() + bal.retry_ns);
        bal.retry_ns = MIN(bal.retry_ns * 2, RETRY_MAX_NS);
    }
    return false;
}

void balloon_work(void)
{
    unsigned int i;

    ASSERT(pv_backend_locked());
    /*
     * A few batches a run: a device that finishes a batch as it is told
     * of it (QEMU's, in the notifying vCPU's thread) gets the next at
     * once; one that takes longer raises us again from its interrupt or
     * its poll.
     */
    for ( i = 0; bal.on && i < RUN_BATCHES; i++ )
    {
        if ( bal.batch_n )
        {
            if ( !balloon_dev_idle() )
                return;
            batch_done();
        }
        if ( !step() )
            return;
    }
    if ( bal.on )
        raise_softirq(BALLOON_SOFTIRQ);
}

void balloon_dump(void)
{
    if ( !balloon_dev_present() )
        return;
    printk("balloon: the host wants %lu pages, has %lu%s (%lu given, %lu "
           "taken back), %lu spare at the start; d1 target %lu KiB, holds "
           "%lu pages\n", balloon_dev_wanted(), bal.held,
           bal.batch_n ? (bal.batch_give ? ", giving a batch"
                                         : ", taking a batch back") : "",
           bal.given, bal.taken, bal.spare, bal.target << 2,
           pv_tot_pages());
    balloon_dev_dump();
}

void balloon_init(void)
{
    struct pv_guest_info info;
    unsigned long free;

    if ( !balloon_dev_present() )
        return;
    pv_guest_info(&info);
    bal.map_pfns = MIN(frames_max_pfn(), (unsigned long)UINT32_MAX + 1);
    /* Zeroed frames of its own, as a vif's state (netback's setup.c). */
    bal.held_map = dma_alloc(ROUNDUP(bal.map_pfns, BITS_PER_WORD) / 8);
    if ( !bal.held_map )
    {
        printk(XENLOG_WARNING "balloon: no memory for its map: the host's "
               "balloon is not followed\n");
        return;
    }
    bal.nr_pages = info.nr_pages;
    bal.target = info.nr_pages;
    free = frames_free_count();
    bal.spare = free - MIN(free, PV_SHIM_RESERVE_PAGES);
    bal.retry_ns = RETRY_MIN_NS;
    init_timer(&bal.retry, retry_fn, NULL, 0);
    bal.on = true;
    printk("balloon: following the host's: %lu MiB spare, then d1's %lu "
           "MiB by its target\n", bal.spare >> 8, bal.nr_pages >> 8);
    cpu_raise_softirq(0, BALLOON_SOFTIRQ);
}
