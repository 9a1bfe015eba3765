/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the GPT reader (backends/blk/gpt.c) and of a partition's
 * range mapping (blkif_map(), backends/blk/blkif-ring.c): vbd='s
 * partition selectors; GUIDs in their mixed-endian disk form; tables
 * built here with 512- and 4096-byte blocks, found by number, unique
 * GUID, type and name; and every header and entry fault the reader must
 * refuse (signature, sizes, CRCs, places, bounds).
 */
#include "tests/unit/unit.h"
#include "../../shim/lib/crc32.c"
#include "../../backends/blk/gpt.c"
#include "../../backends/blk/blkif-ring.c"

#define NR_BLOCKS   2048
#define NR_ENTRIES  128
#define LABEL36     "123456789012345678901234567890123456"  /* the most */

static uint8_t disk[NR_BLOCKS * 4096];
static unsigned int bs;

/* Linux filesystem data, 0fc63daf-8483-4772-8e79-3d69d8477de4, on disk. */
static const uint8_t linux_fs[16] = {
    0xaf, 0x3d, 0xc6, 0x0f, 0x83, 0x84, 0x72, 0x47,
    0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4,
};
static const char linux_fs_text[] = "0fc63daf-8483-4772-8e79-3d69d8477de4";

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, v);
    put32(p + 4, v >> 32);
}

static uint8_t *blk(uint64_t lba)
{
    return disk + lba * bs;
}

static uint8_t *entry(unsigned int i)
{
    return blk(2) + i * 128;
}

/* Entry @i: blocks [first, last], unique GUID ending in @i, @name. */
static void add_part(unsigned int i, const uint8_t *type, uint64_t first,
                     uint64_t last, const char *name)
{
    uint8_t *e = entry(i);
    unsigned int j;

    memcpy(e, type, 16);
    memset(e + 16, 0x11, 16);
    e[31] = i;
    put64(e + 32, first);
    put64(e + 40, last);
    for ( j = 0; name[j]; j++ )
        e[56 + 2 * j] = name[j];
}

/* Both headers' CRCs over what the entries and fields now are. */
static void seal(uint64_t lba)
{
    uint8_t *h = blk(lba);

    put32(h + 88, crc32(0, entry(0), NR_ENTRIES * 128));
    put32(h + 16, 0);
    put32(h + 16, crc32(0, h, h[12] | (h[13] << 8)));
}

/*
 * A disk of NR_BLOCKS blocks of @block bytes: protective MBR, primary
 * header at 1 and its entries from 2, three partitions, a backup header
 * in the last block (its entries are the primary's: enough here).
 */
static void make_disk(unsigned int block)
{
    uint64_t array = (NR_ENTRIES * 128 + block - 1) / block;
    uint8_t *h;

    bs = block;
    memset(disk, 0, sizeof(disk));
    disk[446 + 4] = 0xee;
    disk[510] = 0x55;
    disk[511] = 0xaa;
    add_part(0, linux_fs, 2 + array, 99, "first");
    add_part(1, linux_fs, 100, 199, "guest");
    add_part(3, linux_fs, 300, NR_BLOCKS - 2 - array, LABEL36);
    memset(entry(3), 0x22, 4);          /* another type */
    for ( h = blk(1); h; h = h == blk(1) ? blk(NR_BLOCKS - 1) : NULL )
    {
        memcpy(h, "EFI PART", 8);
        put32(h + 8, 0x10000);
        put32(h + 12, 92);
        put64(h + 24, h == blk(1) ? 1 : NR_BLOCKS - 1);
        put64(h + 32, h == blk(1) ? NR_BLOCKS - 1 : 1);
        put64(h + 40, 2 + array);
        put64(h + 48, NR_BLOCKS - 2 - array);
        memset(h + 56, 0x33, 16);
        put64(h + 72, 2);
        put32(h + 80, NR_ENTRIES);
        put32(h + 84, 128);
    }
    seal(1);
    seal(NR_BLOCKS - 1);
}

/* NULL (valid) reads as "ok", so CHECK_STR() compares it. */
static const char *check(uint64_t lba, struct gpt_header *h)
{
    const char *why = gpt_check_header(blk(lba), bs, lba, NR_BLOCKS, h);

    return why ? why : "ok";
}

static const char *find(const char *spec, struct gpt_part *p)
{
    struct gpt_header h;
    struct gpt_sel sel;
    const char *why;

    if ( !gpt_parse_sel(spec, strlen(spec), &sel) )
        return "bad selector";
    if ( strcmp(why = check(1, &h), "ok") )
        return why;
    why = gpt_find(&h, entry(0), &sel, p);
    return why ? why : "ok";
}

static void test_selectors(void)
{
    static const char *const bad[] = {
        "part=", "part=0", "part=01", "part=65537", "part=123456",
        "part=1x", "part=-1", "partuuid=", "partuuid=0fc63daf",
        "partuuid=0fc63daf-8483-4772-8e79-3d69d8477de", 
        "partuuid=0fc63daf-8483-4772-8e79-3d69d8477de4x",
        "partuuid=0fc63daf+8483-4772-8e79-3d69d8477de4",
        "parttype=0fc63daf-8483-4772-8e79-3d69d8477dg4",
        "partlabel=", "partlabel=1234567890123456789012345678901234567",
        "partlabel=a\tb", "ro", "uuid=x", "PART=1", "",
    };
    struct gpt_sel sel;
    char text[37];
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
        CHECK(!gpt_parse_sel(bad[i], strlen(bad[i]), &sel));
    CHECK(gpt_parse_sel("part=1", 6, &sel));
    CHECK_EQ(sel.by, GPT_BY_NUMBER);
    CHECK_EQ(sel.number, 1);
    CHECK(gpt_parse_sel("part=65536", 10, &sel));
    CHECK_EQ(sel.number, 65536);
    /* Only the length given counts: "part=12" cut after its 1. */
    CHECK(gpt_parse_sel("part=12", 6, &sel));
    CHECK_EQ(sel.number, 1);
    CHECK(gpt_parse_sel("partuuid=0FC63DAF-8483-4772-8E79-3D69D8477DE4",
                        45, &sel));
    CHECK_EQ(sel.by, GPT_BY_UUID);
    CHECK(!memcmp(sel.guid, linux_fs, 16));
    CHECK(gpt_parse_sel("parttype=0fc63daf-8483-4772-8e79-3d69d8477de4",
                        45, &sel));
    CHECK_EQ(sel.by, GPT_BY_TYPE);
    CHECK(!memcmp(sel.guid, linux_fs, 16));
    gpt_format_guid(linux_fs, text);
    CHECK_STR(text, linux_fs_text);
    CHECK(gpt_parse_sel("partlabel=pvshim guest", 22, &sel));
    CHECK_EQ(sel.by, GPT_BY_LABEL);
    CHECK_STR(sel.label, "pvshim guest");
}

static void test_find(void)
{
    static const unsigned int sizes[] = { 512, 4096 };
    struct gpt_part p;
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(sizes); i++ )
    {
        make_disk(sizes[i]);
        CHECK(gpt_check_mbr(disk, bs));
        CHECK_STR(find("part=2", &p), "ok");
        CHECK_EQ(p.number, 2);
        CHECK_EQ(p.first_lba, 100);
        CHECK_EQ(p.nr_lbas, 100);
        CHECK_STR(find("partlabel=guest", &p), "ok");
        CHECK_EQ(p.number, 2);
        CHECK_STR(find("parttype=0fc63daf-8483-4772-8e79-3d69d8477de4",
                       &p), "ok");
        CHECK_EQ(p.number, 1);          /* the first of its type */
        CHECK_STR(find("partuuid=11111111-1111-1111-1111-111111111101",
                       &p), "ok");
        CHECK_EQ(p.number, 2);          /* entry 1: byte 15, the text's last */
        CHECK_STR(find("partlabel=" LABEL36, &p), "ok");
        CHECK_EQ(p.number, 4);
        CHECK_EQ(p.nr_lbas, NR_BLOCKS - 2 - (uint64_t)(16384 / bs) - 300 + 1);
        CHECK_STR(find("partlabel=gues", &p), "no such partition");
        CHECK_STR(find("partlabel=guest2", &p), "no such partition");
        CHECK_STR(find("part=3", &p), "no such partition");   /* unused */
        CHECK_STR(find("part=129", &p), "no such partition");
        CHECK_STR(find("partuuid=11111111-1111-1111-1111-111111111112", &p),
                  "no such partition");
    }
}

/* A fault in the header at @lba (resealed if @reseal): refused, why. */
#define HDR_FAULT(lba, reseal, change, why) do {                            \
    struct gpt_header h_;                                                   \
    make_disk(bs);                                                          \
    change;                                                                 \
    if ( reseal )                                                           \
        seal(lba);                                                          \
    CHECK_STR(check(lba, &h_), (why) ? (why) : "ok");                       \
} while ( 0 )

static void test_header_faults(void)
{
    static const unsigned int sizes[] = { 512, 4096 };
    struct gpt_header h;
    unsigned int i;
    uint8_t *p1;

    for ( i = 0; i < ARRAY_SIZE(sizes); i++ )
    {
        bs = sizes[i];
        make_disk(bs);
        p1 = blk(1);
        CHECK_STR(check(1, &h), "ok");
        CHECK_STR(check(NR_BLOCKS - 1, &h), "ok");
        CHECK_EQ(h.my_lba, NR_BLOCKS - 1);
        /* Found where it doesn't say it is. */
        CHECK_STR(gpt_check_header(blk(1), bs, 2, NR_BLOCKS, &h),
                  "header not where it says it is");
        HDR_FAULT(1, true, p1[0] = 'e', "no \"EFI PART\" signature");
        HDR_FAULT(1, false, p1[40]++, "header CRC mismatch");
        HDR_FAULT(1, false, p1[16]++, "header CRC mismatch");
        HDR_FAULT(1, true, put32(p1 + 12, 91), "header size out of range");
        HDR_FAULT(1, true, put32(p1 + 12, bs + 1), "header size out of range");
        /* A bigger header: its CRC covers the bytes past 92. */
        HDR_FAULT(1, true, (put32(p1 + 12, 100), p1[99] = 1), NULL);
        HDR_FAULT(1, false, (put32(p1 + 12, 100), seal(1), p1[99] = 2),
                  "header CRC mismatch");
        HDR_FAULT(1, true, put64(p1 + 24, 2),
                  "header not where it says it is");
        HDR_FAULT(1, true, put64(p1 + 48, NR_BLOCKS),
                  "usable blocks out of range");
        HDR_FAULT(1, true, put64(p1 + 40, NR_BLOCKS - 2 - 16384 / bs + 1),
                  "usable blocks out of range");
        HDR_FAULT(1, true, put64(p1 + 40, 1), "usable blocks out of range");
        HDR_FAULT(1, true, put64(p1 + 40, ~0ULL),
                  "usable blocks out of range");
        HDR_FAULT(1, true, put32(p1 + 84, 100), "entry size not 128 << n");
        HDR_FAULT(1, true, put32(p1 + 84, 384), "entry size not 128 << n");
        HDR_FAULT(1, true, put32(p1 + 84, 8192), "entry size not 128 << n");
        HDR_FAULT(1, true, put32(p1 + 84, 0), "entry size not 128 << n");
        HDR_FAULT(1, true, put32(p1 + 80, 0), "entry array empty or too big");
        HDR_FAULT(1, true, put32(p1 + 80, 513),
                  "entry array empty or too big");
        HDR_FAULT(1, true, put32(p1 + 80, 0x80000000u),
                  "entry array empty or too big");
        /* 512 entries of 128 bytes: 64 KiB, the most we read. */
        HDR_FAULT(1, true, (put32(p1 + 80, 512), put64(p1 + 40, 130 + 2),
                            put64(p1 + 48, NR_BLOCKS - 2)), NULL);
        HDR_FAULT(1, true, put64(p1 + 72, NR_BLOCKS),
                  "entry array out of range");
        HDR_FAULT(1, true, put64(p1 + 72, ~0ULL - 1),
                  "entry array out of range");
        HDR_FAULT(1, true, put64(p1 + 72, NR_BLOCKS - 1),
                  "entry array out of range");
        HDR_FAULT(1, true, put64(p1 + 72, 1), "entry array out of range");
        HDR_FAULT(1, true, put64(p1 + 72, 3), "entry array out of range");
        HDR_FAULT(1, true, put64(p1 + 72, 1000), "entry array out of range");
    }
}

static void test_entry_faults(void)
{
    struct gpt_part p;
    uint64_t last_usable;

    make_disk(512);
    last_usable = NR_BLOCKS - 2 - 32;
    entry(1)[40]++;                     /* entries changed, CRC not */
    CHECK_STR(find("part=2", &p), "entry array CRC mismatch");
    seal(1);
    CHECK_STR(find("part=2", &p), "ok");
    CHECK_EQ(p.nr_lbas, 101);
    put64(entry(1) + 40, 99);           /* ends before it starts */
    seal(1);
    CHECK_STR(find("part=2", &p), "partition outside the usable blocks");
    put64(entry(1) + 32, 33);           /* before the first usable */
    put64(entry(1) + 40, 40);
    seal(1);
    CHECK_STR(find("part=2", &p), "partition outside the usable blocks");
    put64(entry(1) + 32, 34);           /* the first usable is fine */
    seal(1);
    CHECK_STR(find("part=2", &p), "ok");
    put64(entry(1) + 40, last_usable + 1);  /* over the backup's array */
    seal(1);
    CHECK_STR(find("part=2", &p), "partition outside the usable blocks");
    put64(entry(1) + 40, last_usable);
    seal(1);
    CHECK_STR(find("part=2", &p), "ok");
    CHECK_EQ(p.first_lba + p.nr_lbas - 1, last_usable);
    put64(entry(1) + 32, ~0ULL);        /* wraps */
    put64(entry(1) + 40, 0);
    seal(1);
    CHECK_STR(find("part=2", &p), "partition outside the usable blocks");
    /* No protective MBR: no GPT for us. */
    disk[510] = 0;
    CHECK(!gpt_check_mbr(disk, 512));
    make_disk(512);
    disk[446 + 4] = 0x83;
    CHECK(!gpt_check_mbr(disk, 512));
    disk[446 + 48 + 4] = 0xee;          /* a hybrid MBR's fourth entry */
    CHECK(gpt_check_mbr(disk, 512));
}

/* A partition's range: every sector inside maps, none outside does. */
static void test_map(void)
{
    uint64_t s = 0;

    CHECK(blkif_map(0, 8, 2048, 100, &s));
    CHECK_EQ(s, 2048);
    CHECK(blkif_map(92, 8, 2048, 100, &s));
    CHECK_EQ(s, 2140);
    CHECK(blkif_map(99, 1, 2048, 100, &s));
    CHECK_EQ(s, 2147);
    s = 7;
    CHECK(!blkif_map(93, 8, 2048, 100, &s));    /* over the end */
    CHECK(!blkif_map(100, 1, 2048, 100, &s));   /* past it */
    CHECK(!blkif_map(~0ULL, 2, 2048, 100, &s)); /* wraps */
    CHECK(!blkif_map(1, ~0ULL, 2048, 100, &s));
    CHECK(!blkif_map(0, 101, 2048, 100, &s));
    CHECK_EQ(s, 7);                     /* untouched when refused */
    CHECK(blkif_map(0, 100, 0, 100, &s));       /* a whole device */
    CHECK_EQ(s, 0);
}

int main(void)
{
    RUN(test_selectors);
    RUN(test_find);
    RUN(test_header_faults);
    RUN(test_entry_faults);
    RUN(test_map);
    UNIT_EXIT();
}
