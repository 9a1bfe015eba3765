/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical memory map: making the boot protocol's raw E820-style list
 * sane, and carving the shim's own reservations out of its RAM.
 */
#include "shim/memmap.h"

#define MEMMAP_PAGE     0x1000ULL

/*
 * Exclusive end of the address space the map describes.  Ranges that reach
 * past it, or wrap past 2^64, are clamped, so that every end address fits
 * in 64 bits.  Only the byte at 2^64 - 1 is lost, and nothing lives there.
 */
#define MEMMAP_LIMIT    (~0ULL)

/*
 * Scratch space: this runs before any allocator.  n entries have at most
 * 2n distinct boundaries, hence at most 2n - 1 pieces between them.
 */
static uint64_t points[2 * MEMMAP_MAX];
static struct memmap_entry scratch[2 * MEMMAP_MAX];

int memmap_add(struct memmap *m, uint64_t addr, uint64_t size, uint32_t type)
{
    if ( size == 0 )
        return 0;
    if ( m->nr >= MEMMAP_MAX )
        return -1;

    m->map[m->nr++] = (struct memmap_entry){ addr, size, type };
    return 0;
}

/* Where ranges overlap: does type @a win over type @b? */
static bool beats(uint32_t a, uint32_t b)
{
    if ( a == MEMMAP_RAM || b == MEMMAP_RAM )
        return b == MEMMAP_RAM && a != MEMMAP_RAM;
    return a > b;
}

static bool covers(const struct memmap_entry *e, uint64_t addr)
{
    return addr >= e->addr && addr - e->addr < e->size;
}

/*
 * Append [addr, end) to out[], merging it into the last entry if that
 * ends where this starts and has the same type.  False if out[] is full.
 */
static bool emit(struct memmap_entry *out, unsigned int *nr,
                 unsigned int max, uint64_t addr, uint64_t end, uint32_t type)
{
    struct memmap_entry *last = *nr ? &out[*nr - 1] : NULL;

    if ( addr == end )
        return true;
    if ( last && last->type == type && last->addr + last->size == addr )
    {
        last->size += end - addr;
        return true;
    }
    if ( *nr == max )
        return false;

    out[(*nr)++] = (struct memmap_entry){ addr, end - addr, type };
    return true;
}

/*
 * Clamp every entry to MEMMAP_LIMIT (in place), gather the distinct
 * boundaries into points[] in ascending order, and count the problems
 * the input has: zero sizes, wrapping, disorder, overlaps.
 */
static unsigned int collect_points(struct memmap *m, unsigned int *nr_pts)
{
    unsigned int i, j, k, n = 0, problems = 0;

    for ( i = 0; i < m->nr; i++ )
    {
        struct memmap_entry *e = &m->map[i];

        if ( e->size > MEMMAP_LIMIT - e->addr )
        {
            e->size = MEMMAP_LIMIT - e->addr;
            problems++;
        }
        if ( e->size == 0 )
        {
            problems++;
            continue;
        }
        if ( i && e->addr < m->map[i - 1].addr )
            problems++;
        for ( j = 0; j < i; j++ )
        {
            const struct memmap_entry *f = &m->map[j];

            if ( f->size && e->addr < f->addr + f->size &&
                 f->addr < e->addr + e->size )
            {
                problems++;
                break;
            }
        }

        /* Insertion sort, skipping duplicates. */
        for ( k = 0; k < 2; k++ )
        {
            uint64_t p = k ? e->addr + e->size : e->addr;

            for ( j = n; j && points[j - 1] > p; j-- )
                ;
            if ( j && points[j - 1] == p )
                continue;
            memmove(&points[j + 1], &points[j], (n - j) * sizeof(*points));
            points[j] = p;
            n++;
        }
    }

    *nr_pts = n;
    return problems;
}

unsigned int memmap_sanitise(struct memmap *m)
{
    unsigned int i, j, nr_pts, nr_out = 0, nr_final = 0, problems = 0;

    if ( m->nr > MEMMAP_MAX )
    {
        m->nr = MEMMAP_MAX;
        problems++;
    }

    problems += collect_points(m, &nr_pts);

    /*
     * Between two neighbouring boundaries every entry either covers the
     * whole piece or none of it, so the piece takes the winning type of
     * the entries covering its start (or is a hole if none does).
     */
    for ( i = 0; i + 1 < nr_pts; i++ )
    {
        const struct memmap_entry *win = NULL;

        for ( j = 0; j < m->nr; j++ )
            if ( covers(&m->map[j], points[i]) &&
                 (!win || beats(m->map[j].type, win->type)) )
                win = &m->map[j];

        /* Cannot fail: there are at most 2 * MEMMAP_MAX - 1 pieces. */
        if ( win )
            emit(scratch, &nr_out, ARRAY_SIZE(scratch), points[i],
                 points[i + 1], win->type);
    }

    /*
     * Shrink RAM inwards to whole pages.  This only widens the gaps
     * around RAM, so nothing new becomes mergeable.
     */
    for ( i = 0; i < nr_out; i++ )
    {
        struct memmap_entry e = scratch[i];

        if ( e.type == MEMMAP_RAM )
        {
            uint64_t end = ROUNDDOWN(e.addr + e.size, MEMMAP_PAGE);
            uint64_t start;

            if ( e.addr % MEMMAP_PAGE || e.size % MEMMAP_PAGE )
                problems++;
            if ( e.addr > end )
                continue;
            start = ROUNDUP(e.addr, MEMMAP_PAGE); /* <= end: no overflow */
            if ( start == end )
                continue;
            e = (struct memmap_entry){ start, end - start, MEMMAP_RAM };
        }

        if ( nr_final == MEMMAP_MAX )
        {
            problems++;             /* keep the lowest MEMMAP_MAX */
            break;
        }
        m->map[nr_final++] = e;
    }

    m->nr = nr_final;
    return problems;
}

int memmap_reserve(struct memmap *m, uint64_t addr, uint64_t size,
                   uint32_t type)
{
    uint64_t start = ROUNDDOWN(addr, MEMMAP_PAGE), end;
    unsigned int i, nr = 0;
    bool ok = true;

    if ( size == 0 )
        return 0;

    end = size > MEMMAP_LIMIT - addr ? MEMMAP_LIMIT : addr + size;
    end = end > ROUNDDOWN(MEMMAP_LIMIT, MEMMAP_PAGE)
          ? MEMMAP_LIMIT : ROUNDUP(end, MEMMAP_PAGE);

    for ( i = 0; i < m->nr && ok; i++ )
    {
        const struct memmap_entry *e = &m->map[i];
        uint64_t e_end = e->addr + e->size;
        uint64_t lo = MAX(e->addr, start), hi = MIN(e_end, end);

        if ( e->type != MEMMAP_RAM || lo >= hi )
        {
            ok = emit(scratch, &nr, MEMMAP_MAX, e->addr, e_end, e->type);
            continue;
        }

        /* RAM below, the reserved middle, RAM above. */
        ok = emit(scratch, &nr, MEMMAP_MAX, e->addr, lo, MEMMAP_RAM) &&
             emit(scratch, &nr, MEMMAP_MAX, lo, hi, type) &&
             emit(scratch, &nr, MEMMAP_MAX, hi, e_end, MEMMAP_RAM);
    }

    if ( !ok )
        return -1;                  /* the map is left as it was */

    memcpy(m->map, scratch, nr * sizeof(*scratch));
    m->nr = nr;
    return 0;
}

uint64_t memmap_total(const struct memmap *m, uint32_t type)
{
    uint64_t total = 0;
    unsigned int i;

    for ( i = 0; i < m->nr; i++ )
        if ( m->map[i].type == type )
            total += m->map[i].size;

    return total;
}

uint64_t memmap_ram_end(const struct memmap *m)
{
    uint64_t end = 0;
    unsigned int i;

    for ( i = 0; i < m->nr; i++ )
        if ( m->map[i].type == MEMMAP_RAM )
            end = MAX(end, m->map[i].addr + m->map[i].size);

    return end;
}

uint64_t memmap_low_page(const struct memmap *m, uint64_t limit)
{
    uint64_t best = 0;
    unsigned int i;

    for ( i = 0; i < m->nr; i++ )
    {
        const struct memmap_entry *e = &m->map[i];
        uint64_t start = ROUNDUP(e->addr, MEMMAP_PAGE), end;

        if ( e->type != MEMMAP_RAM || e->addr >= limit )
            continue;
        end = ROUNDDOWN(e->size > limit - e->addr ? limit
                                                  : e->addr + e->size,
                        MEMMAP_PAGE);
        start = MAX(start, MEMMAP_PAGE);
        if ( end > start && end - MEMMAP_PAGE > best )
            best = end - MEMMAP_PAGE;
    }
    return best;
}

const char *memmap_type_name(uint32_t type)
{
    switch ( type )
    {
    case MEMMAP_RAM:        return "RAM";
    case MEMMAP_RESERVED:   return "reserved";
    case MEMMAP_ACPI:       return "ACPI data";
    case MEMMAP_NVS:        return "ACPI NVS";
    case MEMMAP_UNUSABLE:   return "unusable";
    case MEMMAP_DISABLED:   return "disabled";
    case MEMMAP_PMEM:       return "persistent";
    case MEMMAP_SHIM:       return "shim";
    case MEMMAP_MODULE:     return "module";
    case MEMMAP_BOOT:       return "boot data";
    case MEMMAP_ALLOC:      return "allocator";
    default:                return "unknown";
    }
}
