/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore arena: a fixed static pool with power-of-two size classes,
 * so nothing a guest stores can take memory from the rest of the shim.
 * The last XS_ARENA_RESERVE bytes are kept for the shim's own writes, as
 * a place, not only a count: the guest's blocks are cut below it and
 * reused from free lists of blocks below it, so freeing what it wrote
 * never lets it take the reserve's space (a count alone did: blocks
 * freed in one size class serve only that class).
 */
#include "backends/xenstore/xs.h"

#define XS_ARENA_SIZE       (4u << 20)
/*
 * The shim's: every device's backend and frontend directories (about
 * 6.5 KiB a disk or NIC, up to 26 disks and 8 NICs, hot-added ones too,
 * which come from here once the guest has filled its part) and the
 * control and balloon nodes, with room to spare.
 */
#define XS_ARENA_RESERVE    (256u << 10)
#define XS_MIN_SHIFT        5           /* 32-byte blocks */
#define XS_MAX_SHIFT        14          /* 16 KiB blocks */
#define XS_NR_CLASSES       (XS_MAX_SHIFT - XS_MIN_SHIFT + 1)

struct xs_block {
    union {
        struct xs_block *next;          /* on a free list */
        uint64_t cls;                   /* in use: its size class */
    };
};

#define XS_GUEST_LIMIT      (XS_ARENA_SIZE - XS_ARENA_RESERVE)

static uint8_t arena[XS_ARENA_SIZE] __aligned(16);
static size_t arena_top, arena_used;
/* [0]: blocks that end below XS_GUEST_LIMIT; [1]: the others, the shim's. */
static struct xs_block *free_list[2][XS_NR_CLASSES];

static int size_class(size_t size)
{
    unsigned int c;

    size += sizeof(struct xs_block);
    for ( c = 0; c < XS_NR_CLASSES; c++ )
        if ( size <= (1ul << (XS_MIN_SHIFT + c)) )
            return c;
    return -1;
}

static struct xs_block *take_free(unsigned int l, int c)
{
    struct xs_block *b = free_list[l][c];

    if ( b )
        free_list[l][c] = b->next;
    return b;
}

static void *alloc(size_t size, size_t limit)
{
    int c = size_class(size);
    size_t bytes;
    struct xs_block *b;

    if ( c < 0 )
        return NULL;
    bytes = 1ul << (XS_MIN_SHIFT + c);
    if ( arena_used + bytes > limit )
        return NULL;
    /* The shim's reserve first for the shim; the guest's never. */
    b = limit == XS_ARENA_SIZE ? take_free(1, c) : NULL;
    if ( !b )
        b = take_free(0, c);
    if ( !b )
    {
        if ( arena_top + bytes > limit )
            return NULL;
        b = (struct xs_block *)&arena[arena_top];
        arena_top += bytes;
    }
    arena_used += bytes;
    b->cls = c;
    memset(b + 1, 0, bytes - sizeof(*b));
    return b + 1;
}

void *xs_alloc(size_t size)
{
    return alloc(size, XS_GUEST_LIMIT);
}

void *xs_alloc_shim(size_t size)
{
    return alloc(size, XS_ARENA_SIZE);
}

void xs_free(void *p)
{
    struct xs_block *b = (struct xs_block *)p - 1;
    unsigned int c, l;

    if ( !p )
        return;
    c = b->cls;
    ASSERT(c < XS_NR_CLASSES);
    arena_used -= 1ul << (XS_MIN_SHIFT + c);
    l = (uint8_t *)b + (1ul << (XS_MIN_SHIFT + c)) > &arena[XS_GUEST_LIMIT];
    b->next = free_list[l][c];
    free_list[l][c] = b;
}

size_t xs_arena_used(void)
{
    return arena_used;
}

void xs_arena_reset(void)
{
    arena_top = arena_used = 0;
    memset(free_list, 0, sizeof(free_list));
}
