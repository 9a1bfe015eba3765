/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the zstd decoder (unzstd.c: frames, blocks, sequences;
 * zstd-fse.c: backward bitstreams and FSE tables; zstd-huf.c: Huffman
 * literals): its limits, tables and shared state.
 */
#ifndef SHIM_DECOMPRESS_ZSTD_INTERNAL_H
#define SHIM_DECOMPRESS_ZSTD_INTERNAL_H

#include "shim/decompress/decompress.h"

#define ZSTD_MAGIC      0xfd2fb528u
#define BLOCK_MAX       (128u << 10)
#define FSE_MAX_AL      9
#define HUF_MAX_BITS    11
#define MAX_LL          35
#define MAX_ML          52
#define MAX_OF          31

struct fse_entry {
    uint8_t symbol, bits;
    uint16_t base;
};

struct fse {
    struct fse_entry t[1 << FSE_MAX_AL];
    unsigned int al;
};

struct huf_entry {
    uint8_t symbol, bits;
};

struct zstd {
    uint8_t *out;
    size_t op, out_size, frame_start;
    uint32_t rep[3];
    struct fse ll, of, ml;
    bool have_huf;
    unsigned int huf_bits;
    struct huf_entry huf[1 << HUF_MAX_BITS];
    uint8_t lit[BLOCK_MAX];
    size_t nlit;
    const char *why;
};

/* A backward bitstream: bits are read from the end towards the start. */
struct bits {
    const uint8_t *b;
    int64_t off;                /* bits left; negative once read past */
};

int zstd_fail(struct zstd *z, const char *why);
unsigned int zstd_highbit(uint32_t v);
int zstd_bits_init(struct bits *r, const uint8_t *b, size_t len);
uint64_t zstd_bits_read(struct bits *r, unsigned int n);
int zstd_fse_counts(struct zstd *z, const uint8_t *in, size_t len,
                    size_t *used, int16_t *counts, unsigned int max_sym,
                    unsigned int max_al, unsigned int *al, unsigned int *n);
int zstd_fse_build(struct zstd *z, struct fse *f, const int16_t *counts,
                   unsigned int n, unsigned int al);
void zstd_fse_rle(struct fse *f, uint8_t sym);
void zstd_fse_update(const struct fse *f, uint32_t *state, struct bits *r);
int zstd_literals(struct zstd *z, const uint8_t *in, size_t len,
                  size_t *used);

#endif /* SHIM_DECOMPRESS_ZSTD_INTERNAL_H */
