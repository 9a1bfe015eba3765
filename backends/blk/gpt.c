/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A GUID partition table checked as untrusted input, as Linux's
 * block/partitions/efi.c checks it (is_gpt_valid(), is_pte_valid()) and
 * stricter where that costs nothing (entries inside the usable blocks,
 * an array clear of the header), and vbd='s partition selectors.
 * Layouts: UEFI 2.10, section 5.3 (tables 5.5 and 5.6), little-endian.
 */
#include "backends/blk/gpt.h"

/* The header's fields (table 5.5). */
#define HDR_SIGNATURE       0
#define HDR_SIZE            12
#define HDR_CRC             16
#define HDR_MY_LBA          24
#define HDR_ALTERNATE_LBA   32
#define HDR_FIRST_USABLE    40
#define HDR_LAST_USABLE     48
#define HDR_DISK_GUID       56
#define HDR_ENTRIES_LBA     72
#define HDR_NR_ENTRIES      80
#define HDR_ENTRY_SIZE      84
#define HDR_ENTRIES_CRC     88
#define HDR_MIN_SIZE        92

/* An entry's fields (table 5.6). */
#define ENT_TYPE            0
#define ENT_UUID            16
#define ENT_FIRST_LBA       32
#define ENT_LAST_LBA        40
#define ENT_NAME            56

/* Text order of a GUID's bytes -> their place on the disk. */
static const uint8_t guid_order[GPT_GUID_LEN] = {
    3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15,
};

bool gpt_parse_guid(const char *s, size_t len, uint8_t guid[GPT_GUID_LEN])
{
    unsigned int i, n = 0;
    int hi, lo;

    if ( len != 36 )
        return false;
    for ( i = 0; i < 36; )
    {
        if ( i == 8 || i == 13 || i == 18 || i == 23 )
        {
            if ( s[i++] != '-' )
                return false;
            continue;
        }
        if ( (hi = hex_digit(s[i])) > 15 || (lo = hex_digit(s[i + 1])) > 15 )
            return false;
        guid[guid_order[n++]] = (hi << 4) | lo;
        i += 2;
    }
    return true;
}

void gpt_format_guid(const uint8_t guid[GPT_GUID_LEN], char *out)
{
    static const char digits[] = "0123456789abcdef";
    unsigned int i;

    for ( i = 0; i < GPT_GUID_LEN; i++ )
    {
        uint8_t b = guid[guid_order[i]];

        if ( i == 4 || i == 6 || i == 8 || i == 10 )
            *out++ = '-';
        *out++ = digits[b >> 4];
        *out++ = digits[b & 15];
    }
    *out = '\0';
}

static bool prefix(const char *s, size_t len, const char *what, size_t *skip)
{
    size_t n = strlen(what);

    if ( len < n || strncmp(s, what, n) )
        return false;
    *skip = n;
    return true;
}

bool gpt_parse_sel(const char *s, size_t len, struct gpt_sel *sel)
{
    size_t n, i;

    memset(sel, 0, sizeof(*sel));
    if ( prefix(s, len, "part=", &n) )
    {
        /* 1 to 65536: no leading zero, no overflow. */
        if ( len == n || len - n > 5 || s[n] == '0' )
            return false;
        for ( i = n; i < len; i++ )
        {
            if ( s[i] < '0' || s[i] > '9' )
                return false;
            sel->number = sel->number * 10 + (s[i] - '0');
        }
        sel->by = GPT_BY_NUMBER;
        return sel->number <= 65536;
    }
    if ( prefix(s, len, "partuuid=", &n) || prefix(s, len, "parttype=", &n) )
    {
        sel->by = s[4] == 'u' ? GPT_BY_UUID : GPT_BY_TYPE;
        return gpt_parse_guid(s + n, len - n, sel->guid);
    }
    if ( prefix(s, len, "partlabel=", &n) )
    {
        /* Printable ASCII: what a label compares with, a byte a unit. */
        if ( len == n || len - n > GPT_LABEL_LEN )
            return false;
        for ( i = n; i < len; i++ )
            if ( s[i] < 0x20 || s[i] > 0x7e )
                return false;
        memcpy(sel->label, s + n, len - n);
        sel->by = GPT_BY_LABEL;
        return true;
    }
    return false;
}

bool gpt_check_mbr(const uint8_t *blk, unsigned int bs)
{
    unsigned int i;

    if ( bs < 512 || blk[510] != 0x55 || blk[511] != 0xaa )
        return false;
    for ( i = 0; i < 4; i++ )
        if ( blk[446 + i * 16 + 4] == 0xee )
            return true;
    return false;
}

uint32_t gpt_array_bytes(const struct gpt_header *h)
{
    return h->nr_entries * h->entry_size;   /* checked: GPT_ARRAY_MAX */
}

uint32_t gpt_array_blocks(const struct gpt_header *h, unsigned int bs)
{
    return (gpt_array_bytes(h) + bs - 1) / bs;
}

/* Whether blocks [a, a + na) and [b, b + nb) overlap (none wrap). */
static bool overlap(uint64_t a, uint64_t na, uint64_t b, uint64_t nb)
{
    return a < b + nb && b < a + na;
}

const char *gpt_check_header(const uint8_t *blk, unsigned int bs,
                             uint64_t lba, uint64_t nr_blocks,
                             struct gpt_header *h)
{
    static const uint8_t zero[4];
    uint32_t size, crc;
    uint64_t blocks;

    if ( memcmp(blk + HDR_SIGNATURE, "EFI PART", 8) )
        return "no \"EFI PART\" signature";
    size = get_le32(blk + HDR_SIZE);
    if ( size < HDR_MIN_SIZE || size > bs )
        return "header size out of range";
    crc = crc32(0, blk, HDR_CRC);
    crc = crc32(crc, zero, 4);
    crc = crc32(crc, blk + HDR_CRC + 4, size - HDR_CRC - 4);
    if ( crc != get_le32(blk + HDR_CRC) )
        return "header CRC mismatch";

    h->my_lba = get_le64(blk + HDR_MY_LBA);
    h->alternate_lba = get_le64(blk + HDR_ALTERNATE_LBA);
    h->first_usable = get_le64(blk + HDR_FIRST_USABLE);
    h->last_usable = get_le64(blk + HDR_LAST_USABLE);
    memcpy(h->disk_guid, blk + HDR_DISK_GUID, GPT_GUID_LEN);
    h->entries_lba = get_le64(blk + HDR_ENTRIES_LBA);
    h->nr_entries = get_le32(blk + HDR_NR_ENTRIES);
    h->entry_size = get_le32(blk + HDR_ENTRY_SIZE);
    h->entries_crc = get_le32(blk + HDR_ENTRIES_CRC);

    if ( h->my_lba != lba )
        return "header not where it says it is";
    if ( h->first_usable > h->last_usable || h->last_usable >= nr_blocks ||
         (h->my_lba >= h->first_usable && h->my_lba <= h->last_usable) )
        return "usable blocks out of range";
    if ( h->entry_size < GPT_ENTRY_MIN || h->entry_size > 4096 ||
         (h->entry_size & (h->entry_size - 1)) )
        return "entry size not 128 << n";
    if ( !h->nr_entries ||
         (uint64_t)h->nr_entries * h->entry_size > GPT_ARRAY_MAX )
        return "entry array empty or too big";
    blocks = gpt_array_blocks(h, bs);
    if ( h->entries_lba >= nr_blocks || blocks > nr_blocks - h->entries_lba ||
         overlap(h->entries_lba, blocks, h->my_lba, 1) ||
         overlap(h->entries_lba, blocks, h->first_usable,
                 h->last_usable - h->first_usable + 1) )
        return "entry array out of range";
    return NULL;
}

static bool is_zero(const uint8_t *p, size_t len)
{
    while ( len-- )
        if ( *p++ )
            return false;
    return true;
}

/* Whether an entry's name is @label (UTF-16LE, NUL-ended or full). */
static bool name_is(const uint8_t *name, const char *label)
{
    unsigned int i;
    uint16_t u;

    for ( i = 0; i < GPT_LABEL_LEN; i++ )
    {
        u = name[2 * i] | (name[2 * i + 1] << 8);
        if ( u != (uint8_t)label[i] )
            return false;
        if ( !u )
            return true;
    }
    return label[i] == '\0';
}

static bool selected(const uint8_t *e, unsigned int number,
                     const struct gpt_sel *sel)
{
    switch ( sel->by )
    {
    case GPT_BY_NUMBER:
        return number == sel->number;
    case GPT_BY_UUID:
        return !memcmp(e + ENT_UUID, sel->guid, GPT_GUID_LEN);
    case GPT_BY_TYPE:
        return !memcmp(e + ENT_TYPE, sel->guid, GPT_GUID_LEN);
    case GPT_BY_LABEL:
        return name_is(e + ENT_NAME, sel->label);
    case GPT_BY_NONE:
        break;
    }
    return false;
}

const char *gpt_find(const struct gpt_header *h, const uint8_t *array,
                     const struct gpt_sel *sel, struct gpt_part *p)
{
    unsigned int i;
    const uint8_t *e;
    uint64_t first, last;

    if ( crc32(0, array, gpt_array_bytes(h)) != h->entries_crc )
        return "entry array CRC mismatch";
    for ( i = 0; i < h->nr_entries; i++ )
    {
        e = array + (size_t)i * h->entry_size;
        if ( is_zero(e + ENT_TYPE, GPT_GUID_LEN) || !selected(e, i + 1, sel) )
            continue;
        first = get_le64(e + ENT_FIRST_LBA);
        last = get_le64(e + ENT_LAST_LBA);
        if ( first > last || first < h->first_usable ||
             last > h->last_usable )
            return "partition outside the usable blocks";
        p->number = i + 1;
        p->first_lba = first;
        p->nr_lbas = last - first + 1;
        memcpy(p->type, e + ENT_TYPE, GPT_GUID_LEN);
        memcpy(p->uuid, e + ENT_UUID, GPT_GUID_LEN);
        return NULL;
    }
    return "no such partition";
}
