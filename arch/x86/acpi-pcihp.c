/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the DSDT says about QEMU's ACPI PCI hotplug (docs/specs/acpi_pci_hotplug
 * in QEMU): the I/O ports of its PCST region (the "up" and "down" slot
 * bits, then the eject and bus-select registers), and each hot-pluggable
 * bus's selector (BSEL): the root bus's, a Name(BSEL) in \_SB.PCI0's own
 * scope (the pc machine), and each bridge's, a Name(BSEL) in a Device
 * under PCI0 whose _ADR says which bridge (q35's root ports, which QEMU
 * 6.1 and later hot-plug this way by default).  Which selector is which
 * bus only the DSDT says, so the shim walks its AML (ACPI 6.4 ch. 20) as
 * far as QEMU writes it: scopes, devices, names with data, methods and
 * fields skipped by their lengths; anything else ends the walk of that
 * scope, keeping what was found.  Read once by acpi_init(), while boot
 * memory is mapped.
 */
#include "arch/x86/acpi.h"

#define AML_ZERO        0x00
#define AML_ONE         0x01
#define AML_ALIAS       0x06
#define AML_NAME        0x08
#define AML_BYTE        0x0a
#define AML_WORD        0x0b
#define AML_DWORD       0x0c
#define AML_STRING      0x0d
#define AML_QWORD       0x0e
#define AML_SCOPE       0x10
#define AML_BUFFER      0x11
#define AML_PACKAGE     0x12
#define AML_VARPACKAGE  0x13
#define AML_METHOD      0x14
#define AML_EXTERNAL    0x15
#define AML_DUAL_NAME   0x2e
#define AML_MULTI_NAME  0x2f
#define AML_EXT         0x5b
#define  AML_MUTEX      0x01
#define  AML_EVENT      0x02
#define  AML_OPREGION   0x80
#define  AML_FIELD      0x81
#define  AML_DEVICE     0x82
#define  AML_PROCESSOR  0x83
#define  AML_POWERRES   0x84
#define  AML_THERMAL    0x85
#define  AML_INDEXFIELD 0x86
#define AML_ROOT        0x5c    /* '\' */
#define AML_PARENT      0x5e    /* '^' */
#define AML_IF          0xa0
#define AML_ELSE        0xa1
#define AML_WHILE       0xa2
#define AML_ONES        0xff
#define AML_SYSTEM_IO   0x01

#define AML_MAX_DEPTH   16

struct acpi_pcihp acpi_pcihp;

/* One scope being walked: its name's last segment, and for a Device its
 * _ADR and BSEL as found (either may come first). */
struct scope {
    const struct scope *parent;
    char name[4];
    bool device, has_adr, has_bsel;
    uint64_t adr, bsel;
};

/* PkgLength (20.2.4): the length it encodes, from @p; NULL if short. */
static const uint8_t *pkg_length(const uint8_t *p, const uint8_t *end,
                                 uint32_t *len)
{
    unsigned int n, i;

    if ( p >= end )
        return NULL;
    n = *p >> 6;
    if ( end - p < 1 + (long)n )
        return NULL;
    if ( !n )
    {
        *len = *p & 0x3f;
        return p + 1;
    }
    *len = *p & 0x0f;
    for ( i = 0; i < n; i++ )
        *len |= (uint32_t)p[1 + i] << (4 + 8 * i);
    return p + 1 + n;
}

/*
 * The end of a PkgLength-sized object whose PkgLength starts at @p (the
 * length counts itself), within @end; NULL if it runs past.
 */
static const uint8_t *pkg_end(const uint8_t *p, const uint8_t *end)
{
    uint32_t len;

    if ( !pkg_length(p, end, &len) || !len || len > (unsigned long)(end - p) )
        return NULL;
    return p + len;
}

static bool name_char(uint8_t c, bool first)
{
    return c == '_' || (c >= 'A' && c <= 'Z') || (!first && c >= '0' &&
                                                  c <= '9');
}

/* A NameString (20.2.2): past it, its last segment in @seg (or "" for
 * the null name); NULL if malformed. */
static const uint8_t *name_string(const uint8_t *p, const uint8_t *end,
                                  char seg[4])
{
    unsigned int n = 1, i;

    if ( p < end && *p == AML_ROOT )
        p++;
    else
        while ( p < end && *p == AML_PARENT )
            p++;
    if ( p >= end )
        return NULL;
    if ( *p == AML_ZERO )
    {
        memset(seg, 0, 4);
        return p + 1;
    }
    if ( *p == AML_DUAL_NAME )
        n = 2, p++;
    else if ( *p == AML_MULTI_NAME )
    {
        if ( end - p < 2 )
            return NULL;
        n = p[1];
        p += 2;
    }
    if ( !n || (unsigned long)(end - p) < 4UL * n )
        return NULL;
    for ( i = 0; i < 4 * n; i++ )
        if ( !name_char(p[i], !(i % 4)) )
            return NULL;
    memcpy(seg, p + 4 * (n - 1), 4);
    return p + 4 * n;
}

/* An integer constant (20.2.3): past it, its value; NULL if not one. */
static const uint8_t *integer(const uint8_t *p, const uint8_t *end,
                              uint64_t *v)
{
    unsigned int size;

    if ( p >= end )
        return NULL;
    switch ( *p )
    {
    case AML_ZERO:  *v = 0; return p + 1;
    case AML_ONE:   *v = 1; return p + 1;
    case AML_ONES:  *v = ~0ULL; return p + 1;
    case AML_BYTE:  size = 1; break;
    case AML_WORD:  size = 2; break;
    case AML_DWORD: size = 4; break;
    case AML_QWORD: size = 8; break;
    default:        return NULL;
    }
    if ( end - p < 1 + (long)size )
        return NULL;
    *v = 0;
    memcpy(v, p + 1, size);
    return p + 1 + size;
}

/* A DataRefObject after a Name (20.2.3): past it; NULL if unknown. */
static const uint8_t *data_object(const uint8_t *p, const uint8_t *end,
                                  uint64_t *v, bool *is_int)
{
    const uint8_t *q;

    *is_int = false;
    if ( (q = integer(p, end, v)) )
    {
        *is_int = true;
        return q;
    }
    if ( p >= end )
        return NULL;
    switch ( *p )
    {
    case AML_STRING:
        for ( q = p + 1; q < end && *q; q++ )
            continue;
        return q < end ? q + 1 : NULL;
    case AML_BUFFER:
    case AML_PACKAGE:
    case AML_VARPACKAGE:
        return pkg_end(p + 1, end);
    }
    return NULL;
}

static bool is(const char seg[4], const char *name)
{
    return !memcmp(seg, name, 4);
}

static void found_bsel(const struct scope *s, uint64_t bsel)
{
    if ( bsel >= ACPI_PCIHP_MAX_BSEL )
        return;
    if ( is(s->name, "PCI0") )
        acpi_pcihp.root_bsel = bsel;
    else if ( s->device && s->has_adr && s->parent &&
              is(s->parent->name, "PCI0") &&
              acpi_pcihp.nr < ARRAY_SIZE(acpi_pcihp.bridge) )
    {
        acpi_pcihp.bridge[acpi_pcihp.nr].adr = s->adr;
        acpi_pcihp.bridge[acpi_pcihp.nr].bsel = bsel;
        acpi_pcihp.nr++;
    }
}

static void walk(const uint8_t *p, const uint8_t *end, struct scope *s,
                 unsigned int depth);

/* Scope or Device at @p (past its opcode): walked inside; past it. */
static const uint8_t *open_scope(const uint8_t *p, const uint8_t *end,
                                 struct scope *parent, bool device,
                                 unsigned int depth)
{
    struct scope s = { .parent = parent, .device = device };
    const uint8_t *body, *stop = pkg_end(p, end);
    uint32_t len;

    if ( !stop || !(body = pkg_length(p, stop, &len)) ||
         !(body = name_string(body, stop, s.name)) )
        return NULL;
    if ( depth < AML_MAX_DEPTH )
        walk(body, stop, &s, depth + 1);
    if ( s.has_bsel )
        found_bsel(&s, s.bsel);
    return stop;
}

/* OperationRegion(name, space, offset, length): PCST's I/O port kept. */
static const uint8_t *op_region(const uint8_t *p, const uint8_t *end)
{
    char seg[4];
    uint8_t space;
    uint64_t offset, len;

    if ( !(p = name_string(p, end, seg)) || p >= end )
        return NULL;
    space = *p++;
    if ( !(p = integer(p, end, &offset)) || !(p = integer(p, end, &len)) )
        return NULL;
    if ( is(seg, "PCST") && space == AML_SYSTEM_IO && offset &&
         offset <= 0xfff0 )
        acpi_pcihp.base = offset;
    return p;
}

/* A TermList from @p to @end in scope @s: as far as it is understood. */
static void walk(const uint8_t *p, const uint8_t *end, struct scope *s,
                 unsigned int depth)
{
    char seg[4], other[4];
    uint64_t v;
    bool is_int;

    while ( p && p < end )
    {
        uint8_t op = *p++;

        switch ( op )
        {
        case AML_SCOPE:
            p = open_scope(p, end, s, false, depth);
            break;
        case AML_NAME:
            if ( !(p = name_string(p, end, seg)) ||
                 !(p = data_object(p, end, &v, &is_int)) || !is_int )
                break;
            if ( is(seg, "_ADR") )
                s->adr = v, s->has_adr = true;
            else if ( is(seg, "BSEL") )
                s->bsel = v, s->has_bsel = true;
            break;
        case AML_METHOD:
        case AML_IF:
        case AML_ELSE:
        case AML_WHILE:
            p = pkg_end(p, end);
            break;
        case AML_ALIAS:
            if ( (p = name_string(p, end, seg)) )
                p = name_string(p, end, other);
            break;
        case AML_EXTERNAL:
            if ( (p = name_string(p, end, seg)) )
                p = end - p >= 2 ? p + 2 : NULL;
            break;
        case AML_EXT:
            if ( p >= end )
                return;
            switch ( *p++ )
            {
            case AML_DEVICE:
                p = open_scope(p, end, s, true, depth);
                break;
            case AML_OPREGION:
                p = op_region(p, end);
                break;
            case AML_MUTEX:
                if ( (p = name_string(p, end, seg)) )
                    p = p < end ? p + 1 : NULL;
                break;
            case AML_EVENT:
                p = name_string(p, end, seg);
                break;
            case AML_FIELD:
            case AML_INDEXFIELD:
            case AML_PROCESSOR:
            case AML_POWERRES:
            case AML_THERMAL:
                p = pkg_end(p, end);
                break;
            default:
                return;
            }
            break;
        default:
            return;                     /* not QEMU's: the rest unread */
        }
    }
}

void acpi_pcihp_parse(const void *dsdt, uint32_t length)
{
    const uint8_t *t = dsdt;
    struct scope root = { .name = "\\" };

    memset(&acpi_pcihp, 0, sizeof(acpi_pcihp));
    acpi_pcihp.root_bsel = -1;
    if ( length > ACPI_HEADER_SIZE )
        walk(t + ACPI_HEADER_SIZE, t + length, &root, 0);
}
