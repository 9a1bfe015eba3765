/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block ring's two ABIs (xen/io/blkif.h): the native x86_64 one the
 * public header defines, and the x86_32 one a 32-bit guest's blkfront
 * lays out (protocol "x86_32-abi"), which the header only gives for the
 * compiler's own width: 8-byte members 4-byte aligned, so a request is
 * 108 bytes (id at 4) and a response 12 (Linux's blkif_x86_32_request
 * in drivers/block/xen-blkback/common.h, written here from the ABI),
 * and its discard and indirect forms likewise.
 */
#ifndef BACKENDS_BLK_BLKIF_ABI_H
#define BACKENDS_BLK_BLKIF_ABI_H

#include "shim/lib.h"
#include "arch/x86/barrier.h"
#include <xen/xen.h>
#include <xen/grant_table.h>

/* ring.h's barriers, for the interface version the shim builds with. */
#define xen_mb()    smp_mb()
#define xen_rmb()   smp_rmb()
#define xen_wmb()   smp_wmb()

#include <xen/io/ring.h>
#include <xen/io/blkif.h>
#include <xen/io/protocols.h>

struct blkif_x86_32_request {
    uint8_t operation;
    uint8_t nr_segments;
    blkif_vdev_t handle;
    uint64_t id;
    blkif_sector_t sector_number;
    struct blkif_request_segment seg[BLKIF_MAX_SEGMENTS_PER_REQUEST];
} __attribute__((__packed__));

/* The same request's discard and indirect forms (Linux's common.h). */
struct blkif_x86_32_request_discard {
    uint8_t operation;
    uint8_t flag;
    blkif_vdev_t handle;
    uint64_t id;
    blkif_sector_t sector_number;
    uint64_t nr_sectors;
} __attribute__((__packed__));

struct blkif_x86_32_request_indirect {
    uint8_t operation;
    uint8_t indirect_op;
    uint16_t nr_segments;
    uint64_t id;
    blkif_sector_t sector_number;
    blkif_vdev_t handle;
    uint16_t pad1;
    grant_ref_t indirect_grefs[BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST];
    uint64_t pad2;
} __attribute__((__packed__));

struct blkif_x86_32_response {
    uint64_t id;
    uint8_t operation;
    uint8_t pad;
    int16_t status;
} __attribute__((__packed__));

DEFINE_RING_TYPES(blkif_x86_32, struct blkif_x86_32_request,
                  struct blkif_x86_32_response);

_Static_assert(sizeof(struct blkif_x86_32_request) == 108, "x86_32 request");
_Static_assert(sizeof(struct blkif_x86_32_response) == 12, "x86_32 response");
_Static_assert(offsetof(struct blkif_x86_32_request_discard, nr_sectors) == 20,
               "x86_32 discard");
_Static_assert(offsetof(struct blkif_x86_32_request_indirect,
                        indirect_grefs) == 24 &&
               sizeof(struct blkif_x86_32_request_indirect) == 64,
               "x86_32 indirect");
_Static_assert(offsetof(struct blkif_request_indirect, id) == 8 &&
               offsetof(struct blkif_request_indirect, indirect_grefs) == 28,
               "x86_64 indirect");
_Static_assert(offsetof(struct blkif_request_discard, nr_sectors) == 24,
               "x86_64 discard");
_Static_assert(sizeof(struct blkif_request_segment) == 8, "segment");
_Static_assert(sizeof(struct blkif_request) == 112, "x86_64 request");
_Static_assert(sizeof(struct blkif_response) == 16, "x86_64 response");
_Static_assert(offsetof(struct blkif_sring, ring) == 64 &&
               offsetof(struct blkif_x86_32_sring, ring) == 64,
               "ring header");

#endif /* BACKENDS_BLK_BLKIF_ABI_H */
