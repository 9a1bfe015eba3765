/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A GUID partition table (UEFI 2.10, section 5.3) read as untrusted
 * input, and the partition selectors of vbd= (part=, partuuid=,
 * partlabel=, parttype=): pure logic that the host tests compile
 * (gpt.c).  The I/O that fetches the table is part.c's.
 */
#ifndef BACKENDS_BLK_GPT_H
#define BACKENDS_BLK_GPT_H

#include "shim/lib.h"

#define GPT_GUID_LEN        16
#define GPT_LABEL_LEN       36      /* UTF-16 code units in an entry */
#define GPT_ENTRY_MIN       128     /* bytes: an entry, at least */
/* The entry array we read at most (UEFI's minimum is 16 KiB). */
#define GPT_ARRAY_MAX       (64u * 1024)

/* How vbd= names a partition. */
enum gpt_by {
    GPT_BY_NONE,                    /* the whole device */
    GPT_BY_NUMBER,                  /* part=N: entry N, from 1 */
    GPT_BY_UUID,                    /* partuuid=GUID: the unique GUID */
    GPT_BY_TYPE,                    /* parttype=GUID: the first of a type */
    GPT_BY_LABEL,                   /* partlabel=NAME: the first so named */
};

struct gpt_sel {
    enum gpt_by by;
    unsigned int number;
    uint8_t guid[GPT_GUID_LEN];     /* as on the disk (mixed-endian) */
    char label[GPT_LABEL_LEN + 1];  /* ASCII */
};

/* A header found valid: where its entries are, and the usable blocks. */
struct gpt_header {
    uint64_t my_lba, alternate_lba;
    uint64_t first_usable, last_usable;
    uint64_t entries_lba;
    uint32_t nr_entries, entry_size, entries_crc;
    uint8_t disk_guid[GPT_GUID_LEN];
};

/* A partition found: its blocks (logical blocks of the disk). */
struct gpt_part {
    unsigned int number;            /* from 1 */
    uint64_t first_lba, nr_lbas;
    uint8_t type[GPT_GUID_LEN], uuid[GPT_GUID_LEN];
};

/*
 * "part=N", "partuuid=GUID", "partlabel=NAME" or "parttype=GUID" in
 * [@s, @s + @len) into @sel; false if it is none of them or malformed.
 */
bool gpt_parse_sel(const char *s, size_t len, struct gpt_sel *sel);

/* A GUID's text form "xxxxxxxx-xxxx-..." into its on-disk bytes. */
bool gpt_parse_guid(const char *s, size_t len, uint8_t guid[GPT_GUID_LEN]);

/* Its text form (37 bytes with the NUL) from the on-disk bytes. */
void gpt_format_guid(const uint8_t guid[GPT_GUID_LEN], char *out);

/*
 * Whether block 0 (@blk, @bs bytes) is a protective MBR (or a hybrid
 * one): the 0x55aa signature and a partition of type 0xee.
 */
bool gpt_check_mbr(const uint8_t *blk, unsigned int bs);

/*
 * Check the header in block @lba (@blk, @bs bytes) of a disk of
 * @nr_blocks blocks: signature, size, CRC, that it says it is at @lba,
 * usable blocks and entry array inside the disk and clear of both
 * headers, entries of a size we take, an array of at most
 * GPT_ARRAY_MAX bytes.  NULL and @h filled, or why not.
 */
const char *gpt_check_header(const uint8_t *blk, unsigned int bs,
                             uint64_t lba, uint64_t nr_blocks,
                             struct gpt_header *h);

/* The bytes of @h's entry array, and the whole blocks they take. */
uint32_t gpt_array_bytes(const struct gpt_header *h);
uint32_t gpt_array_blocks(const struct gpt_header *h, unsigned int bs);

/*
 * Check the entry array (gpt_array_bytes(@h) bytes at @array) against
 * @h's CRC, then find the partition @sel names: used, its blocks in
 * order and inside @h's usable ones.  NULL and @p filled, or why not.
 */
const char *gpt_find(const struct gpt_header *h, const uint8_t *array,
                     const struct gpt_sel *sel, struct gpt_part *p);

#endif /* BACKENDS_BLK_GPT_H */
