/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A guest disk over one GPT partition of a container device (vbd=
 * DEVICE:partuuid=..., docs/command-line.md): the device's GPT read at
 * boot, before the guest runs, and checked by gpt.c: the primary
 * header, else the backup in the device's last block.  The vbd then
 * maps the guest's sectors onto the partition's (request.c).
 */
#include "backends/blk/blkback.h"
#include "drivers/dma.h"
#include "shim/console.h"
#include "shim/timer.h"

#define READ_TIMEOUT_NS     10000000000ULL  /* 10 s: TCG, a loaded host */

/*
 * Device-reachable memory for a header block and the entry array, and
 * the one request in flight, never on the stack: a read that timed out
 * is still the device's, so after one we read no more (stuck).
 */
static uint8_t *buf;
static struct blk_request rd;
static struct blk_seg rd_seg;
static enum blk_status rd_status;
static bool rd_done, stuck;

static void read_done(struct blk_request *req, enum blk_status status)
{
    rd_status = status;
    __atomic_store_n(&rd_done, true, __ATOMIC_RELEASE);
}

/* One read of @nr sectors (at most a page) at @sector into @to. */
static enum blk_status read_one(struct blk_dev *dev, uint64_t sector,
                                uint32_t nr, uint8_t *to)
{
    uint64_t deadline = NOW() + READ_TIMEOUT_NS;
    enum blk_status s;

    rd_seg = (struct blk_seg){ dma_addr(to), nr * BLK_SECTOR_SIZE };
    rd = (struct blk_request){
        .op = BLK_OP_READ, .sector = sector, .nr_segs = 1, .seg = &rd_seg,
        .done = read_done,
    };
    rd_done = false;
    if ( (s = blk_submit(dev, &rd)) != BLK_OK )
        return s;
    while ( !__atomic_load_n(&rd_done, __ATOMIC_ACQUIRE) )
    {
        if ( NOW() > deadline )
        {
            stuck = true;
            return BLK_EIO;
        }
        blk_poll(dev);
        cpu_relax();
    }
    return rd_status;
}

/* Logical blocks [@lba, @lba + @n) into buf + @off, a page at a time. */
static bool read_blocks(struct blk_dev *dev, uint64_t lba, uint32_t n,
                        size_t off)
{
    unsigned int lbs = dev->sector_size / BLK_SECTOR_SIZE;
    uint64_t sector = lba * lbs, left = (uint64_t)n * lbs;
    uint32_t nr;
    enum blk_status s;

    for ( ; left; left -= nr, sector += nr, off += nr * BLK_SECTOR_SIZE )
    {
        nr = MIN(left, (uint64_t)BLKIF_SECTORS_PER_PAGE);
        if ( stuck || (s = read_one(dev, sector, nr, buf + off)) != BLK_OK )
        {
            printk(XENLOG_WARNING "blkback: %s: reading its GPT at sector "
                   "%llu: %s\n", dev->name, (unsigned long long)sector,
                   stuck ? "no completion in 10 s" : blk_status_name(s));
            return false;
        }
    }
    return true;
}

/* The header at @lba, then its entries (into buf + PAGE_SIZE). */
static const char *read_gpt(struct blk_dev *dev, uint64_t lba,
                            struct gpt_header *h)
{
    unsigned int bs = dev->sector_size;
    uint64_t nr_blocks = dev->nr_sectors / (bs / BLK_SECTOR_SIZE);
    const char *why;

    if ( !read_blocks(dev, lba, 1, 0) )
        return "unreadable";
    if ( (why = gpt_check_header(buf, bs, lba, nr_blocks, h)) )
        return why;
    if ( !read_blocks(dev, h->entries_lba, gpt_array_blocks(h, bs),
                      PAGE_SIZE) )
        return "entries unreadable";
    return NULL;
}

bool vbd_find_part(struct blk_dev *dev, const struct gpt_sel *sel,
                   struct gpt_part *p)
{
    unsigned int bs = dev->sector_size;
    uint64_t nr_blocks = dev->nr_sectors / (bs / BLK_SECTOR_SIZE);
    struct gpt_header h;
    const char *why;

    if ( bs > PAGE_SIZE || nr_blocks < 3 )
        return false;
    if ( !buf && !(buf = dma_alloc(PAGE_SIZE + GPT_ARRAY_MAX)) )
    {
        printk(XENLOG_WARNING "blkback: %s: no memory to read its GPT\n",
               dev->name);
        return false;
    }
    if ( !read_blocks(dev, 0, 1, 0) || !gpt_check_mbr(buf, bs) )
    {
        printk(XENLOG_INFO "blkback: %s: no protective MBR, no GPT\n",
               dev->name);
        return false;
    }
    if ( (why = read_gpt(dev, 1, &h)) )
    {
        printk(XENLOG_WARNING "blkback: %s: primary GPT: %s\n", dev->name,
               why);
        if ( (why = read_gpt(dev, nr_blocks - 1, &h)) )
        {
            printk(XENLOG_WARNING "blkback: %s: backup GPT: %s\n",
                   dev->name, why);
            return false;
        }
    }
    if ( (why = gpt_find(&h, buf + PAGE_SIZE, sel, p)) )
    {
        printk(XENLOG_INFO "blkback: %s: GPT: %s\n", dev->name, why);
        return false;
    }
    return true;
}
