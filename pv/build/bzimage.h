/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A Linux x86 bzImage as a guest kernel module (as Xen's
 * xen/arch/x86/bzimage.c takes one): the boot protocol's setup header
 * (Documentation/arch/x86/boot.rst) locates a compressed payload that
 * holds the ELF kernel; Linux appends the payload's uncompressed size.
 * Pure logic, compiled by host tests too.
 */
#ifndef PV_BUILD_BZIMAGE_H
#define PV_BUILD_BZIMAGE_H

#include "shim/lib.h"
#include "shim/decompress/decompress.h"

/* The largest kernel we decompress: a 6.1 vmlinux is ~55 MiB. */
#define PV_BZIMAGE_MAX_KERNEL   (256UL << 20)

struct pv_bzimage {
    const uint8_t *stream;          /* the compressed stream ... */
    size_t stream_len;              /* ... without Linux's size trailer */
    size_t kernel_len;              /* the trailer: the ELF's size */
    enum decompress_format format;
    unsigned int version;           /* boot protocol, e.g. 0x20f */
};

/*
 * 1 if @img is no bzImage (no "HdrS" setup header: try it as an ELF),
 * 0 with *bz filled in, or -1 with a reason in *why if it is a bzImage
 * we refuse (old protocol, payload outside the image, absurd size).
 */
int pv_bzimage_parse(const uint8_t *img, size_t size, struct pv_bzimage *bz,
                     const char **why);

/* Decompress into @out (bz->kernel_len bytes): exactly that many, or -1. */
int pv_bzimage_decompress(const struct pv_bzimage *bz, uint8_t *out,
                          const char **why);

#endif /* PV_BUILD_BZIMAGE_H */
