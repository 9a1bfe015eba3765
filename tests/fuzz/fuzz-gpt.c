/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the GPT reader (backends/blk/gpt.c) over what a
 * guest's or a stranger's disk may hold: the input's first byte picks
 * the block size (512 or 4096) and a selector, the rest is the disk,
 * allocated to its exact size (ASan sees a read past it).  As part.c
 * does: MBR, the primary header, else the backup in the last block, its
 * entry array, the partition.  A header found valid has its array inside
 * the disk and clear of the header and the usable blocks; a partition
 * found lies inside the usable blocks, which lie inside the disk.
 */
#include "tests/fuzz/fuzz.h"
#include "shim/lib/crc32.c"
#include "backends/blk/gpt.c"

static const char *const sels[] = {
    "part=1", "part=2", "part=128",
    "partlabel=guest", "partlabel=pvshim-guest",
    "parttype=0fc63daf-8483-4772-8e79-3d69d8477de4",
    "partuuid=11111111-1111-1111-1111-111111111101",
    "partuuid=00000000-0000-0000-0000-000000000000",
};

static bool header(const uint8_t *disk, unsigned int bs, uint64_t nr,
                   uint64_t lba, struct gpt_header *h)
{
    uint64_t blocks;

    if ( gpt_check_header(disk + lba * bs, bs, lba, nr, h) )
        return false;
    blocks = gpt_array_blocks(h, bs);
    FUZZ_ASSERT(h->my_lba == lba);
    FUZZ_ASSERT(h->first_usable <= h->last_usable && h->last_usable < nr);
    FUZZ_ASSERT(h->entries_lba + blocks <= nr);
    FUZZ_ASSERT(gpt_array_bytes(h) <= GPT_ARRAY_MAX);
    FUZZ_ASSERT(h->entries_lba + blocks <= h->first_usable ||
                h->entries_lba > h->last_usable);
    FUZZ_ASSERT(lba < h->entries_lba || lba >= h->entries_lba + blocks);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned int bs, pick;
    uint64_t nr;
    struct gpt_header h;
    struct gpt_sel sel;
    struct gpt_part p;
    uint8_t *disk;
    const char *s;

    if ( size < 1 )
        return 0;
    pick = data[0];
    bs = pick & 0x80 ? 4096 : 512;
    s = sels[pick % ARRAY_SIZE(sels)];
    FUZZ_ASSERT(gpt_parse_sel(s, strlen(s), &sel));
    nr = (size - 1) / bs;
    if ( nr < 3 )
        return 0;
    disk = malloc(nr * bs);
    memcpy(disk, data + 1, nr * bs);
    if ( gpt_check_mbr(disk, bs) &&
         (header(disk, bs, nr, 1, &h) || header(disk, bs, nr, nr - 1, &h)) &&
         !gpt_find(&h, disk + h.entries_lba * bs, &sel, &p) )
    {
        FUZZ_ASSERT(p.number >= 1 && p.number <= h.nr_entries);
        FUZZ_ASSERT(p.nr_lbas >= 1);
        FUZZ_ASSERT(p.first_lba >= h.first_usable);
        FUZZ_ASSERT(p.first_lba + p.nr_lbas - 1 <= h.last_usable);
    }
    free(disk);
    return 0;
}
