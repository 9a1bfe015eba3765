/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The legacy __xen_guest section string ("GUEST_OS=linux,XEN_VER=...") that
 * kernels older than ELF notes carry, as Xen's elf_xen_parse_guest_info().
 */
#include "pv/build/elf-internal.h"

#include <xen/errno.h>

/* strtoull(s, NULL, 0) over a counted string, refusing junk and overflow. */
static bool parse_u64(const char *s, size_t len, uint64_t *val)
{
    unsigned int base = 10, d;

    if ( len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') )
    {
        base = 16;
        s += 2;
        len -= 2;
    }
    else if ( len > 1 && s[0] == '0' )
        base = 8;
    if ( !len )
        return false;

    for ( *val = 0; len; s++, len-- )
    {
        if ( *s >= '0' && *s <= '9' )
            d = *s - '0';
        else if ( (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' )
            d = (*s | 0x20) - 'a' + 10;
        else
            return false;
        if ( d >= base || *val > (~0ULL - d) / base )
            return false;
        *val = *val * base + d;
    }

    return true;
}

static int legacy_number(struct elf_ctx *c, const char *key, size_t klen,
                         const char *v, size_t vlen, uint64_t *val)
{
    if ( parse_u64(v, vlen, val) )
        return 0;
    why_str(c, "__xen_guest: bad number for ");
    why_strn(c, key, klen);
    return -XEN_EINVAL;
}

/* One KEY=VALUE of the legacy string (Xen's elf_xen_parse_guest_info()). */
static int legacy_pair(struct elf_ctx *c, const char *key, size_t klen,
                       const char *v, size_t vlen)
{
    struct pv_kernel *k = c->k;
    int rc = 0;

    if ( str_is(key, klen, "LOADER") )
        copy_str(k->loader, sizeof(k->loader), v, vlen);
    else if ( str_is(key, klen, "GUEST_OS") )
        copy_str(k->guest_os, sizeof(k->guest_os), v, vlen);
    else if ( str_is(key, klen, "GUEST_VER") )
        copy_str(k->guest_version, sizeof(k->guest_version), v, vlen);
    else if ( str_is(key, klen, "XEN_VER") )
        copy_str(k->xen_version, sizeof(k->xen_version), v, vlen);
    else if ( str_is(key, klen, "PAE") )
    {
        if ( str_is(v, vlen, "yes[extended-cr3]") )
            k->pae = PV_PAE_EXTENDED_CR3;
        else if ( vlen >= 3 && !memcmp(v, "yes", 3) )
            k->pae = PV_PAE_YES;
    }
    else if ( str_is(key, klen, "BSD_SYMTAB") )
        k->bsd_symtab = true;
    else if ( str_is(key, klen, "VIRT_BASE") )
    {
        rc = legacy_number(c, key, klen, v, vlen, &k->virt_base);
        c->virt_base_set = true;
    }
    else if ( str_is(key, klen, "VIRT_ENTRY") )
    {
        rc = legacy_number(c, key, klen, v, vlen, &k->entry);
        c->entry_set = true;
    }
    else if ( str_is(key, klen, "ELF_PADDR_OFFSET") )
    {
        rc = legacy_number(c, key, klen, v, vlen, &k->paddr_offset);
        c->paddr_offset_set = true;
    }
    else if ( str_is(key, klen, "HYPERCALL_PAGE") )
    {
        rc = legacy_number(c, key, klen, v, vlen, &c->legacy_hypercall_pfn);
        c->legacy_hypercall_set = true;
    }
    else if ( str_is(key, klen, "FEATURES") )
        rc = parse_features(c, v, vlen);

    return rc;
}

/* The comma-separated KEY=VALUE list, up to a NUL or the section's end. */
static int parse_legacy(struct elf_ctx *c, const char *s, size_t size)
{
    size_t len = strnlen(s, size);
    int rc;

    while ( len )
    {
        size_t tok = 0, klen = 0;

        while ( tok < len && s[tok] != ',' )
            tok++;
        while ( klen < tok && s[klen] != '=' )
            klen++;
        rc = legacy_pair(c, s, klen, s + MIN(klen + 1, tok),
                         tok - MIN(klen + 1, tok));
        if ( rc )
            return rc;

        s += MIN(tok + 1, len);
        len -= MIN(tok + 1, len);
    }

    /* HYPERCALL_PAGE is a page number, relative to VIRT_BASE. */
    if ( c->legacy_hypercall_set )
    {
        uint64_t va = c->legacy_hypercall_pfn << 12;

        if ( c->legacy_hypercall_pfn >> 52 || va > ~c->k->virt_base )
            return fail(c, -XEN_EINVAL,
                        "__xen_guest: HYPERCALL_PAGE overflow");
        c->k->hypercall_page = va + c->k->virt_base;
    }

    return 0;
}

/* Find the section named __xen_guest through e_shstrndx, and parse it. */
int find_legacy(struct elf_ctx *c)
{
    static const char name[] = "__xen_guest";
    struct elf64_shdr strtab, sh;
    unsigned int i;

    if ( c->shstrndx >= c->shnum )
        return 0;
    read_shdr(c, c->shstrndx, &strtab);
    if ( strtab.sh_type == SHT_NOBITS ||
         !in_file(c, strtab.sh_offset, strtab.sh_size) )
        return fail(c, -XEN_EINVAL, "section name table outside the file");

    for ( i = 0; i < c->shnum; i++ )
    {
        read_shdr(c, i, &sh);
        if ( sh.sh_name >= strtab.sh_size ||
             strtab.sh_size - sh.sh_name < sizeof(name) ||
             memcmp(c->img + strtab.sh_offset + sh.sh_name, name,
                    sizeof(name)) )
            continue;

        if ( sh.sh_type == SHT_NOBITS ||
             !in_file(c, sh.sh_offset, sh.sh_size) )
            return fail(c, -XEN_EINVAL,
                        "__xen_guest section outside the file");
        c->k->has_legacy_guest_string = true;

        return parse_legacy(c, (const char *)c->img + sh.sh_offset,
                            sh.sh_size);
    }

    return 0;
}
