/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bzImage parsing (pv/build/bzimage.h): the setup header fields Xen's
 * bzimage.c reads, every offset checked against the image, then the
 * payload handed to shim/decompress/.
 */
#include "pv/build/bzimage.h"

/* Offsets in the image of the setup header fields we read (boot.rst). */
#define BZ_SETUP_SECTS      0x1f1   /* u8: setup sectors after the first */
#define BZ_BOOT_FLAG        0x1fe   /* u16: 0xaa55 */
#define BZ_HEADER           0x202   /* "HdrS" */
#define BZ_VERSION          0x206   /* u16: boot protocol version */
#define BZ_PAYLOAD_OFFSET   0x248   /* u32, protocol 2.08+ */
#define BZ_PAYLOAD_LENGTH   0x24c   /* u32 */
#define BZ_HEADER_END       0x250
#define BZ_SECTOR           512
#define BZ_TRAILER          4       /* Linux's size_append */

int pv_bzimage_parse(const uint8_t *img, size_t size, struct pv_bzimage *bz,
                     const char **why)
{
    uint64_t setup, start, len;
    const uint8_t *payload;

    memset(bz, 0, sizeof(*bz));
    if ( size < BZ_HEADER + 4 || memcmp(img + BZ_HEADER, "HdrS", 4) )
        return 1;
    if ( size < BZ_HEADER_END )
        return *why = "bzImage setup header truncated", -1;
    if ( get_le16(img + BZ_BOOT_FLAG) != 0xaa55 )
        return *why = "bzImage has no boot sector signature", -1;
    bz->version = get_le16(img + BZ_VERSION);
    if ( bz->version < 0x208 )
        return *why = "bzImage boot protocol older than 2.08 "
                      "(no payload fields)", -1;

    setup = img[BZ_SETUP_SECTS] ? img[BZ_SETUP_SECTS] : 4;  /* 0 means 4 */
    start = (setup + 1) * BZ_SECTOR + get_le32(img + BZ_PAYLOAD_OFFSET);
    len = get_le32(img + BZ_PAYLOAD_LENGTH);
    if ( start > size || len > size - start )
        return *why = "bzImage payload lies outside the image", -1;
    if ( len <= BZ_TRAILER )
        return *why = "bzImage payload too short", -1;
    payload = img + start;

    bz->kernel_len = get_le32(payload + len - BZ_TRAILER);
    if ( !bz->kernel_len || bz->kernel_len > PV_BZIMAGE_MAX_KERNEL )
        return *why = "bzImage payload's uncompressed size is absurd "
                      "(zero or over 256 MiB)", -1;
    bz->format = decompress_probe(payload, len);
    if ( bz->format == DECOMPRESS_UNKNOWN )
        return *why = "bzImage payload in an unknown compression format", -1;
    bz->stream = payload;
    /* gzip's own ISIZE is the trailer; Linux appends one to the others. */
    bz->stream_len = decompress_has_own_trailer(bz->format) ? len
                                                            : len - BZ_TRAILER;
    return 0;
}

int pv_bzimage_decompress(const struct pv_bzimage *bz, uint8_t *out,
                          const char **why)
{
    size_t got;

    if ( decompress(bz->stream, bz->stream_len, out, bz->kernel_len, &got,
                    why) )
        return -1;
    if ( got != bz->kernel_len )
        return *why = "bzImage payload is shorter than its trailer says", -1;
    return 0;
}
