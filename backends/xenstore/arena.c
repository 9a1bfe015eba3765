/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore arena: a fixed static pool with power-of-two size classes,
 * so nothing a guest stores can take memory from the rest of the shim.
 * The last XS_ARENA_RESERVE bytes are kept for the shim's own writes.
 */
#include "backends/xenstore/xs.h"

#define XS_ARENA_SIZE       (4u << 20)
#define XS_ARENA_RESERVE    (64u << 10)
#define XS_MIN_SHIFT        5           /* 32-byte blocks */
#define XS_MAX_SHIFT        14          /* 16 KiB blocks */
#define XS_NR_CLASSES       (XS_MAX_SHIFT - XS_MIN_SHIFT + 1)

struct xs_block {
    union {
        struct xs_block *next;          /* on a free list */
        uint64_t cls;                   /* in use: its size class */
    };
};

static uint8_t arena[XS_ARENA_SIZE] __aligned(16);
static size_t arena_top, arena_used;
static struct xs_block *free_list[XS_NR_CLASSES];

static int size_class(size_t size)
{
    unsigned int c;

    size += sizeof(struct xs_block);
    for ( c = 0; c < XS_NR_CLASSES; c++ )
        if ( size <= (1ul << (XS_MIN_SHIFT + c)) )
            return c;
    return -1;
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
    if ( (b = free_list[c]) != NULL )
        free_list[c] = b->next;
    else if ( arena_top + bytes <= XS_ARENA_SIZE )
    {
        b = (struct xs_block *)&arena[arena_top];
        arena_top += bytes;
    }
    else
        return NULL;
    arena_used += bytes;
    b->cls = c;
    memset(b + 1, 0, bytes - sizeof(*b));
    return b + 1;
}

void *xs_alloc(size_t size)
{
    return alloc(size, XS_ARENA_SIZE - XS_ARENA_RESERVE);
}

void *xs_alloc_shim(size_t size)
{
    return alloc(size, XS_ARENA_SIZE);
}

void xs_free(void *p)
{
    struct xs_block *b = (struct xs_block *)p - 1;
    unsigned int c;

    if ( !p )
        return;
    c = b->cls;
    ASSERT(c < XS_NR_CLASSES);
    arena_used -= 1ul << (XS_MIN_SHIFT + c);
    b->next = free_list[c];
    free_list[c] = b;
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
