/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blk-selftest: a test aid that does I/O on every block device at boot
 * and logs each step, for tests/boot to check against the disk image it
 * made: sector n holds the 64-bit little-endian n in each of its 8-byte
 * words.  It reads sectors (through unaligned and page-crossing
 * segments, checking the device's transfer and segment limits), writes
 * sector 20 with a pattern, flushes, zeroes sectors 24-25 and discards
 * 32-39 where the device offers it, and reads on each queue
 * from the CPU that owns it.  A request that doesn't complete in time
 * fails the test, never hangs the boot.
 */
#include "arch/x86/apic.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "drivers/block.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/param.h"
#include "shim/timer.h"

/* blk-selftest=<boolean>: test every block device at boot (default off). */
static bool opt_blk_selftest;
boolean_param("blk-selftest", opt_blk_selftest);

/*
 * blk-selftest-timeout=<seconds>: how long each request may take (default
 * 10: TCG, a loaded host).
 */
static unsigned int opt_blk_selftest_timeout = 10;
integer_param("blk-selftest-timeout", opt_blk_selftest_timeout);
#define TIMEOUT_NS      ((uint64_t)opt_blk_selftest_timeout * 1000000000ULL)
#define WRITE_SECTOR    20
#define ZERO_SECTOR     24
#define DISCARD_SECTOR  32
#define QUEUE_SECTOR    40

struct test_io {
    struct blk_request req;
    struct blk_seg seg[3];
    enum blk_status status;
    unsigned int cpu;               /* where it completed */
    struct blk_dev *dev;
    bool done;
};

static uint8_t *buf;                /* 4 pages of dma_alloc() memory */
/*
 * One request at a time, never on the stack: one that timed out is still
 * the device's, which may complete it (into io and buf) at any time
 * later, so the test stops (stuck) rather than reuse either.
 */
static struct test_io io;
static bool stuck;

static void io_done(struct blk_request *req, enum blk_status status)
{
    struct test_io *io = req->data;

    io->status = status;
    io->cpu = smp_processor_id();
    __atomic_store_n(&io->done, true, __ATOMIC_RELEASE);
}

/* Wait for @io, interrupts let in, a timer waking us now and then. */
static bool wait_io(struct test_io *io)
{
    uint64_t deadline = NOW() + TIMEOUT_NS;

    while ( !__atomic_load_n(&io->done, __ATOMIC_ACQUIRE) )
    {
        if ( NOW() > deadline )
            return false;
        timer_halt();
    }
    timer_halt_end();
    return true;
}

static void io_prep(struct test_io *io, enum blk_op op, uint64_t sector)
{
    memset(io, 0, sizeof(*io));
    io->req.op = op;
    io->req.sector = sector;
    io->req.seg = io->seg;
    io->req.done = io_done;
    io->req.data = io;
}

static void io_seg(struct test_io *io, unsigned int off, uint32_t len)
{
    io->seg[io->req.nr_segs++] = (struct blk_seg){ dma_addr(buf + off), len };
}

/* Submit and wait: the status, or a failure logged. */
static bool run(struct blk_dev *dev, struct test_io *io, const char *what)
{
    enum blk_status s = blk_submit(dev, &io->req);

    if ( s == BLK_OK && !wait_io(io) )
    {
        stuck = true;
        printk(XENLOG_ERR "blk-selftest: %s: %s: FAILED: no completion in "
               "%u s\n", dev->name, what, opt_blk_selftest_timeout);
        return false;
    }
    if ( s == BLK_OK )
        s = io->status;
    if ( s != BLK_OK )
        printk(XENLOG_ERR "blk-selftest: %s: %s: FAILED: %s\n", dev->name,
               what, blk_status_name(s));
    return s == BLK_OK;
}

/* Whether the 512 bytes at @p are sector @n as the test image has it. */
static bool is_sector(const uint8_t *p, uint64_t n)
{
    unsigned int i;

    for ( i = 0; i < BLK_SECTOR_SIZE; i += 8 )
        if ( memcmp(p + i, &n, 8) )
            return false;
    return true;
}

static bool check(struct blk_dev *dev, const char *what, bool ok)
{
    if ( !ok )
        printk(XENLOG_ERR "blk-selftest: %s: %s: FAILED: wrong data\n",
               dev->name, what);
    return ok;
}

static uint8_t pattern(unsigned int i)
{
    return i * 7 + 1;
}

/* Sectors @first.. into @off.. of buf (as one segment), checked. */
static bool read_one_seg(struct blk_dev *dev, const char *what,
                         uint64_t first, unsigned int off, unsigned int nr)
{
    unsigned int i;
    bool ok;

    memset(buf, 0xee, 4 * PAGE_SIZE);
    io_prep(&io, BLK_OP_READ, first);
    io_seg(&io, off, nr * BLK_SECTOR_SIZE);
    if ( !run(dev, &io, what) )
        return false;
    ok = buf[off - 1] == 0xee && buf[off + nr * BLK_SECTOR_SIZE] == 0xee;
    for ( i = 0; i < nr; i++ )
        ok &= is_sector(buf + off + i * BLK_SECTOR_SIZE, first + i);
    return check(dev, what, ok);
}

/*
 * Segments over page boundaries: one across two pages, one over four (an
 * NVMe PRP list), unless over the device's transfer limit, which must
 * refuse it; and two segments, the first ending mid-page, which a device
 * with a segment boundary (NVMe's PRPs) must refuse.
 */
static bool test_crossing_reads(struct blk_dev *dev)
{
    if ( !read_one_seg(dev, "read sectors 2-9 across a page", 2,
                       PAGE_SIZE - 1024, 8) )
        return false;
    if ( !dev->max_sectors || dev->max_sectors >= 24 )
    {
        if ( !read_one_seg(dev, "read sectors 0-23 over 4 pages", 0, 512,
                           24) )
            return false;
    }
    else
    {
        io_prep(&io, BLK_OP_READ, 0);
        io_seg(&io, 512, 24 * BLK_SECTOR_SIZE);
        if ( blk_submit(dev, &io.req) != BLK_EINVAL )
            return check(dev, "a read over the transfer limit is refused",
                         false);
        printk("blk-selftest: %s: a read of 24 sectors, over its limit of "
               "%u, is refused\n", dev->name, dev->max_sectors);
    }

    io_prep(&io, BLK_OP_READ, 1);
    io_seg(&io, 512, 512);
    io_seg(&io, PAGE_SIZE, 512);
    if ( dev->seg_boundary )
    {
        if ( blk_submit(dev, &io.req) != BLK_EINVAL )
            return check(dev, "a segment off its boundary is refused",
                         false);
        printk("blk-selftest: %s: a segment ending mid-page is refused\n",
               dev->name);
        return true;
    }
    memset(buf, 0xee, 2 * PAGE_SIZE);
    if ( !run(dev, &io, "read sectors 1-2, the first ending mid-page") )
        return false;
    return check(dev, "read sectors 1-2, the first ending mid-page",
                 is_sector(buf + 512, 1) && is_sector(buf + PAGE_SIZE, 2) &&
                 buf[1024] == 0xee);
}

/* Sector 0 whole, then sectors 1-16 through three uneven segments. */
static bool test_reads(struct blk_dev *dev)
{
    unsigned int i;
    bool ok = true;

    io_prep(&io, BLK_OP_READ, 0);
    io_seg(&io, 0, BLK_SECTOR_SIZE);
    if ( !run(dev, &io, "read sector 0") ||
         !check(dev, "read sector 0", is_sector(buf, 0)) )
        return false;

    memset(buf, 0xee, 4 * PAGE_SIZE);
    io_prep(&io, BLK_OP_READ, 1);
    io_seg(&io, PAGE_SIZE - 512, 512);              /* sector 1 */
    io_seg(&io, PAGE_SIZE, PAGE_SIZE);              /* 2-9 */
    io_seg(&io, 2 * PAGE_SIZE, PAGE_SIZE - 512);    /* 10-16 */
    if ( !run(dev, &io, "read sectors 1-16 in 3 segments") )
        return false;
    ok = is_sector(buf + PAGE_SIZE - 512, 1);
    for ( i = 0; i < 8; i++ )
        ok &= is_sector(buf + PAGE_SIZE + i * 512, 2 + i);
    for ( i = 0; i < 7; i++ )
        ok &= is_sector(buf + 2 * PAGE_SIZE + i * 512, 10 + i);
    /* Nothing else. */
    ok &= buf[PAGE_SIZE - 513] == 0xee && buf[3 * PAGE_SIZE - 512] == 0xee;
    if ( !check(dev, "read sectors 1-16 in 3 segments", ok) ||
         !test_crossing_reads(dev) )
        return false;

    io_prep(&io, BLK_OP_READ, dev->nr_sectors - 1);
    io_seg(&io, 0, BLK_SECTOR_SIZE);
    if ( !run(dev, &io, "read the last sector") ||
         !check(dev, "read the last sector",
                is_sector(buf, dev->nr_sectors - 1)) )
        return false;

    io_prep(&io, BLK_OP_READ, dev->nr_sectors);
    io_seg(&io, 0, BLK_SECTOR_SIZE);
    if ( blk_submit(dev, &io.req) != BLK_EINVAL )
        return check(dev, "a read past the end is refused", false);
    printk("blk-selftest: %s: reads ok\n", dev->name);
    return true;
}

/* Sector WRITE_SECTOR written, read back, flushed. */
static bool test_write(struct blk_dev *dev)
{
    unsigned int i;

    for ( i = 0; i < BLK_SECTOR_SIZE; i++ )
        buf[i] = pattern(i);
    io_prep(&io, BLK_OP_WRITE, WRITE_SECTOR);
    io_seg(&io, 0, BLK_SECTOR_SIZE);
    if ( !run(dev, &io, "write") )
        return false;
    memset(buf, 0, BLK_SECTOR_SIZE);
    io_prep(&io, BLK_OP_READ, WRITE_SECTOR);
    io_seg(&io, PAGE_SIZE, BLK_SECTOR_SIZE);
    if ( !run(dev, &io, "read back") )
        return false;
    for ( i = 0; i < BLK_SECTOR_SIZE; i++ )
        if ( buf[PAGE_SIZE + i] != pattern(i) )
            return check(dev, "read back", false);
    printk("blk-selftest: %s: wrote sector %u, read it back\n", dev->name,
           WRITE_SECTOR);
    if ( !(dev->features & BLK_F_FLUSH) )
        return true;
    io_prep(&io, BLK_OP_FLUSH, 0);
    if ( !run(dev, &io, "flush") )
        return false;
    printk("blk-selftest: %s: flushed\n", dev->name);
    return true;
}

/* Write-zeroes and discard, where the device has them. */
static bool test_ranges(struct blk_dev *dev)
{
    unsigned int i;

    if ( dev->features & BLK_F_WRITE_ZEROES )
    {
        io_prep(&io, BLK_OP_WRITE_ZEROES, ZERO_SECTOR);
        io.req.nr_sectors = 2;
        if ( !run(dev, &io, "write-zeroes") )
            return false;
        memset(buf, 0xee, 2 * BLK_SECTOR_SIZE);
        io_prep(&io, BLK_OP_READ, ZERO_SECTOR);
        io_seg(&io, 0, 2 * BLK_SECTOR_SIZE);
        if ( !run(dev, &io, "read zeroes") )
            return false;
        for ( i = 0; i < 2 * BLK_SECTOR_SIZE; i++ )
            if ( buf[i] )
                return check(dev, "read zeroes", false);
        printk("blk-selftest: %s: zeroed sectors %u-%u\n", dev->name,
               ZERO_SECTOR, ZERO_SECTOR + 1);
    }
    if ( dev->features & BLK_F_DISCARD )
    {
        io_prep(&io, BLK_OP_DISCARD, DISCARD_SECTOR);
        io.req.nr_sectors = 8;
        if ( !run(dev, &io, "discard") )
            return false;
        printk("blk-selftest: %s: discarded sectors %u-%u\n", dev->name,
               DISCARD_SECTOR, DISCARD_SECTOR + 7);
    }
    return true;
}

/* On another CPU: submit there, so on the queue that CPU owns. */
static void submit_here(const struct cpu_regs *regs, void *data)
{
    struct test_io *io = data;

    if ( blk_submit(io->dev, &io->req) != BLK_OK )
    {
        io->status = BLK_EINVAL;
        __atomic_store_n(&io->done, true, __ATOMIC_RELEASE);
    }
}

/* A read on each queue from its CPU, completed on that CPU. */
static bool test_queues(struct blk_dev *dev)
{
    unsigned int q;
    char what[32];

    for ( q = 1; q < dev->nr_queues; q++ )
    {
        snprintf(what, sizeof(what), "read on queue %u", q);
        io_prep(&io, BLK_OP_READ, QUEUE_SECTOR + q);
        io_seg(&io, 0, BLK_SECTOR_SIZE);
        io.dev = dev;
        if ( !smp_call_function_single(q, submit_here, &io) ||
             !wait_io(&io) )
        {
            stuck = true;
            printk(XENLOG_ERR "blk-selftest: %s: %s: FAILED: no "
                   "completion\n", dev->name, what);
            return false;
        }
        if ( io.status != BLK_OK || !is_sector(buf, QUEUE_SECTOR + q) )
            return check(dev, what, false);
        printk("blk-selftest: %s: queue %u: read from CPU %u, completed "
               "on CPU %u\n", dev->name, q, q, io.cpu);
    }
    return true;
}

void blk_selftest(void)
{
    unsigned int i;

    if ( !opt_blk_selftest )
        return;
    if ( !blk_count() )
    {
        printk(XENLOG_WARNING "blk-selftest: no block device\n");
        return;
    }
    if ( !(buf = dma_alloc(4 * PAGE_SIZE)) )
        return;
    for ( i = 0; i < blk_count() && !stuck; i++ )
    {
        struct blk_dev *dev = blk_get(i);

        if ( dev->nr_sectors < 64 || dev->sector_size != BLK_SECTOR_SIZE )
        {
            printk(XENLOG_WARNING "blk-selftest: %s: not a test disk\n",
                   dev->name);
            continue;
        }
        if ( test_reads(dev) && test_write(dev) && test_ranges(dev) &&
             test_queues(dev) )
            printk("blk-selftest: %s: passed\n", dev->name);
    }
    if ( stuck )
        printk(XENLOG_ERR "blk-selftest: stopped: a request is still the "
               "device's\n");
}
