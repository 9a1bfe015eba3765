/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV kernel image parser (pv/elf.h): ELF64 program headers, Xen notes
 * or the legacy __xen_guest string, then where each segment lands.  The
 * rules follow Xen's libelf (libelf-loader.c, libelf-dominfo.c), stricter.
 */
#include "pv/elf.h"

#include <xen/errno.h>

#define PAGE_MASK_4K    0xfffULL

/*
 * What a 64-bit PV guest may map: the lower canonical half, and the upper
 * half above Xen's reserved area (xen/arch-x86/xen-x86_64.h).
 */
#define GUEST_LOW_END       (1ULL << 47)
#define GUEST_HIGH_START    __HYPERVISOR_VIRT_END

struct elf_ctx {
    const uint8_t *img;
    size_t size;
    struct pv_kernel *k;
    const char *why;
    size_t why_len;
    uint64_t shoff;
    unsigned int shnum, shstrndx, nr_notes;
    bool entry_set, virt_base_set, paddr_offset_set, legacy_hypercall_set;
    uint64_t legacy_hypercall_pfn;
};

/* Xen's elf_xen_feature_names[]: the names a FEATURES string may use. */
static const char *const feature_names[] = {
    [XENFEAT_writable_page_tables]       = "writable_page_tables",
    [XENFEAT_writable_descriptor_tables] = "writable_descriptor_tables",
    [XENFEAT_auto_translated_physmap]    = "auto_translated_physmap",
    [XENFEAT_supervisor_mode_kernel]     = "supervisor_mode_kernel",
    [XENFEAT_pae_pgdir_above_4gb]        = "pae_pgdir_above_4gb",
    [XENFEAT_hvm_callback_vector]        = "hvm_callback_vector",
    [XENFEAT_dom0]                       = "dom0",
};

/* The notes we read (Xen's note_desc[]): name, and string or number. */
static const struct {
    const char *name;
    bool str;
} notes[XEN_ELFNOTE_MAX + 1] = {
    [XEN_ELFNOTE_ENTRY]              = { "ENTRY", false },
    [XEN_ELFNOTE_HYPERCALL_PAGE]     = { "HYPERCALL_PAGE", false },
    [XEN_ELFNOTE_VIRT_BASE]          = { "VIRT_BASE", false },
    [XEN_ELFNOTE_PADDR_OFFSET]       = { "PADDR_OFFSET", false },
    [XEN_ELFNOTE_XEN_VERSION]        = { "XEN_VERSION", true },
    [XEN_ELFNOTE_GUEST_OS]           = { "GUEST_OS", true },
    [XEN_ELFNOTE_GUEST_VERSION]      = { "GUEST_VERSION", true },
    [XEN_ELFNOTE_LOADER]             = { "LOADER", true },
    [XEN_ELFNOTE_PAE_MODE]           = { "PAE_MODE", true },
    [XEN_ELFNOTE_FEATURES]           = { "FEATURES", true },
    [XEN_ELFNOTE_BSD_SYMTAB]         = { "BSD_SYMTAB", true },
    [XEN_ELFNOTE_HV_START_LOW]       = { "HV_START_LOW", false },
    [XEN_ELFNOTE_SUSPEND_CANCEL]     = { "SUSPEND_CANCEL", false },
    [XEN_ELFNOTE_INIT_P2M]           = { "INIT_P2M", false },
    [XEN_ELFNOTE_MOD_START_PFN]      = { "MOD_START_PFN", false },
    [XEN_ELFNOTE_SUPPORTED_FEATURES] = { "SUPPORTED_FEATURES", false },
    [XEN_ELFNOTE_PHYS32_ENTRY]       = { "PHYS32_ENTRY", false },
};

static int fail(struct elf_ctx *c, int rc, const char *msg)
{
    c->why = msg;
    return rc;
}

/* Append len bytes of s to the message in k->why, '?' for unprintables. */
static void why_strn(struct elf_ctx *c, const char *s, size_t len)
{
    char *buf = c->k->why;

    for ( ; len && *s && c->why_len < sizeof(c->k->why) - 1; s++, len-- )
        buf[c->why_len++] = (*s >= ' ' && *s <= '~') ? *s : '?';
    buf[c->why_len] = '\0';
    c->why = buf;
}

static void why_str(struct elf_ctx *c, const char *s)
{
    why_strn(c, s, sizeof(c->k->why));
}

static void why_num(struct elf_ctx *c, unsigned int n)
{
    char digits[12];
    unsigned int i = sizeof(digits) - 1;

    digits[i] = '\0';
    do {
        digits[--i] = '0' + n % 10;
        n /= 10;
    } while ( n );
    why_str(c, &digits[i]);
}

/* "segment <n><what>", for the segment whose program header is n. */
static int fail_seg(struct elf_ctx *c, int rc, unsigned int n,
                    const char *what)
{
    why_str(c, "segment ");
    why_num(c, n);
    why_str(c, what);
    return rc;
}

/* [off, off + len) lies inside the file. */
static bool in_file(const struct elf_ctx *c, uint64_t off, uint64_t len)
{
    return off <= c->size && len <= c->size - off;
}

/* The counted string [s, s + len) equals the C string lit. */
static bool str_is(const char *s, size_t len, const char *lit)
{
    return len == strlen(lit) && !memcmp(s, lit, len);
}

static void copy_str(char *dst, size_t dst_size, const char *s, size_t len)
{
    len = MIN(len, dst_size - 1);
    memcpy(dst, s, len);
    dst[len] = '\0';
}

/* ------------------------------------------------------------ headers */

static int check_ehdr(struct elf_ctx *c, const struct elf64_ehdr *eh)
{
    uint64_t phsize = (uint64_t)eh->e_phnum * sizeof(struct elf64_phdr);

    if ( eh->e_ident[EI_CLASS] != ELFCLASS64 ||
         eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64 )
        return fail(c, -XEN_ENOEXEC, "not ELF64 x86-64");
    /* Xen doesn't look at e_type; we take what a linker makes of a kernel. */
    if ( eh->e_type != ET_EXEC && eh->e_type != ET_DYN )
        return fail(c, -XEN_ENOEXEC, "not an executable");

    if ( eh->e_phnum == 0 )
        return fail(c, -XEN_ENOEXEC, "no program headers");
    if ( eh->e_phnum == PN_XNUM )
        return fail(c, -XEN_EINVAL, "too many program headers");
    if ( eh->e_phentsize != sizeof(struct elf64_phdr) )
        return fail(c, -XEN_EINVAL, "bad program header size");
    if ( !in_file(c, eh->e_phoff, phsize) )
        return fail(c, -XEN_EINVAL, "program header table outside the file");

    /* No table (e_shoff 0), or extended numbering (e_shnum 0): no sections. */
    if ( eh->e_shoff && eh->e_shnum )
    {
        if ( eh->e_shentsize != sizeof(struct elf64_shdr) )
            return fail(c, -XEN_EINVAL, "bad section header size");
        if ( !in_file(c, eh->e_shoff,
                      (uint64_t)eh->e_shnum * sizeof(struct elf64_shdr)) )
            return fail(c, -XEN_EINVAL,
                        "section header table outside the file");
        c->shoff = eh->e_shoff;
        c->shnum = eh->e_shnum;
        c->shstrndx = eh->e_shstrndx;
    }

    return 0;
}

static void read_phdr(const struct elf_ctx *c, const struct elf64_ehdr *eh,
                      unsigned int i, struct elf64_phdr *ph)
{
    memcpy(ph, c->img + eh->e_phoff + (uint64_t)i * sizeof(*ph), sizeof(*ph));
}

static void read_shdr(const struct elf_ctx *c, unsigned int i,
                      struct elf64_shdr *sh)
{
    memcpy(sh, c->img + c->shoff + (uint64_t)i * sizeof(*sh), sizeof(*sh));
}

/*
 * Collect the loadable segments: PT_LOAD with any of R/W/X set, as Xen's
 * elf_phdr_is_loadable() decides.  Their dest comes later, with the notes.
 */
static int parse_segments(struct elf_ctx *c, const struct elf64_ehdr *eh)
{
    struct pv_kernel *k = c->k;
    struct elf64_phdr ph;
    unsigned int i;

    for ( i = 0; i < eh->e_phnum; i++ )
    {
        struct pv_elf_segment *s;

        read_phdr(c, eh, i, &ph);
        if ( ph.p_type != PT_LOAD || !(ph.p_flags & (PF_R | PF_W | PF_X)) )
            continue;
        if ( k->nr_segments == PV_ELF_MAX_SEGMENTS )
            return fail(c, -XEN_E2BIG, "more than 8 loadable segments");
        if ( ph.p_memsz < ph.p_filesz )
            return fail_seg(c, -XEN_EINVAL, i, ": memsz < filesz");
        if ( !in_file(c, ph.p_offset, ph.p_filesz) )
            return fail_seg(c, -XEN_EINVAL, i, " file data outside the file");
        if ( ph.p_memsz > ~ph.p_paddr || ph.p_memsz > ~ph.p_vaddr )
            return fail_seg(c, -XEN_EINVAL, i, ": address overflow");

        s = &k->seg[k->nr_segments++];
        s->vaddr = ph.p_vaddr;
        s->paddr = ph.p_paddr;
        s->offset = ph.p_offset;
        s->filesz = ph.p_filesz;
        s->memsz = ph.p_memsz;
        s->flags = ph.p_flags;
        s->phdr = i;
    }

    if ( !k->nr_segments )
        return fail(c, -XEN_ENOEXEC, "no loadable segment");

    return 0;
}

/* ------------------------------------------------------------ features */

/*
 * A FEATURES string: names from feature_names[] separated by '|', each
 * with a leading '!' if required.  Unknown names are ignored unless
 * required (Xen's elf_xen_parse_features()).
 */
static int parse_features(struct elf_ctx *c, const char *s, size_t len)
{
    struct pv_kernel *k = c->k;

    while ( len )
    {
        size_t tok = 0, n;
        const char *name = s;
        bool required = false;
        unsigned int i;

        while ( tok < len && s[tok] != '|' )
            tok++;
        n = tok;
        if ( n && name[0] == '!' )
        {
            required = true;
            name++;
            n--;
        }

        for ( i = 0; tok && i < ARRAY_SIZE(feature_names); i++ )
            if ( feature_names[i] && str_is(name, n, feature_names[i]) )
                break;

        if ( tok && i < ARRAY_SIZE(feature_names) )
        {
            k->features_supported[i / 32] |= 1U << (i % 32);
            if ( required )
                k->features_required[i / 32] |= 1U << (i % 32);
        }
        else if ( required )
        {
            why_str(c, "unknown required feature '");
            why_strn(c, name, MIN(n, (size_t)40));
            why_str(c, "'");
            return -XEN_EOPNOTSUPP;
        }

        s += tok;
        len -= tok;
        if ( len )
        {
            s++;                /* the '|' */
            len--;
        }
    }

    return 0;
}

static bool test_feature(const uint32_t *map, unsigned int xenfeat)
{
    if ( xenfeat >= 32 * XENFEAT_NR_SUBMAPS )
        return false;

    return map[xenfeat / 32] & (1U << (xenfeat % 32));
}

bool pv_elf_feature_supported(const struct pv_kernel *k, unsigned int xenfeat)
{
    return test_feature(k->features_supported, xenfeat);
}

bool pv_elf_feature_required(const struct pv_kernel *k, unsigned int xenfeat)
{
    return test_feature(k->features_required, xenfeat);
}

/* ------------------------------------------------------------ Xen notes */

/* A numeric note is 1, 2, 4 or 8 bytes, little-endian (libelf-tools.c). */
static bool note_numeric(const uint8_t *desc, uint64_t descsz, uint64_t *val)
{
    unsigned int i;

    if ( descsz != 1 && descsz != 2 && descsz != 4 && descsz != 8 )
        return false;
    for ( *val = 0, i = 0; i < descsz; i++ )
        *val |= (uint64_t)desc[i] << (8 * i);

    return true;
}

static int note_fail(struct elf_ctx *c, uint32_t type, const char *what)
{
    why_str(c, "note ");
    why_str(c, notes[type].name);
    why_str(c, what);
    return -XEN_EINVAL;
}

static void note_number(struct elf_ctx *c, uint32_t type, uint64_t val)
{
    struct pv_kernel *k = c->k;

    switch ( type )
    {
    case XEN_ELFNOTE_ENTRY:
        k->entry = val;
        c->entry_set = true;
        break;
    case XEN_ELFNOTE_VIRT_BASE:
        k->virt_base = val;
        c->virt_base_set = true;
        break;
    case XEN_ELFNOTE_PADDR_OFFSET:
        k->paddr_offset = val;
        c->paddr_offset_set = true;
        break;
    case XEN_ELFNOTE_HYPERCALL_PAGE:    k->hypercall_page = val; break;
    case XEN_ELFNOTE_INIT_P2M:          k->init_p2m = val; break;
    case XEN_ELFNOTE_HV_START_LOW:      k->hv_start_low = val; break;
    case XEN_ELFNOTE_MOD_START_PFN:     k->mod_start_pfn = val; break;
    case XEN_ELFNOTE_SUSPEND_CANCEL:    k->suspend_cancel = val; break;
    case XEN_ELFNOTE_PHYS32_ENTRY:      break;  /* PVH only */
    }
}

static int note_string(struct elf_ctx *c, uint32_t type, const char *s,
                       size_t len)
{
    struct pv_kernel *k = c->k;
    size_t i;

    switch ( type )
    {
    case XEN_ELFNOTE_XEN_VERSION:
        copy_str(k->xen_version, sizeof(k->xen_version), s, len);
        break;
    case XEN_ELFNOTE_GUEST_OS:
        copy_str(k->guest_os, sizeof(k->guest_os), s, len);
        break;
    case XEN_ELFNOTE_GUEST_VERSION:
        copy_str(k->guest_version, sizeof(k->guest_version), s, len);
        break;
    case XEN_ELFNOTE_LOADER:
        copy_str(k->loader, sizeof(k->loader), s, len);
        break;
    case XEN_ELFNOTE_BSD_SYMTAB:
        k->bsd_symtab = str_is(s, len, "yes");
        break;
    case XEN_ELFNOTE_FEATURES:
        return parse_features(c, s, len);
    case XEN_ELFNOTE_PAE_MODE:
        /* The note's "yes" means extended-cr3 (elfnote.h); "bimodal" wins. */
        if ( str_is(s, len, "yes") )
            k->pae = PV_PAE_EXTENDED_CR3;
        for ( i = 0; i + 7 <= len; i++ )
            if ( !memcmp(s + i, "bimodal", 7) )
                k->pae = PV_PAE_BIMODAL;
        break;
    }

    return 0;
}

/* One note named "Xen".  Unknown types are ignored, as Xen does. */
static int parse_note(struct elf_ctx *c, uint32_t type, const uint8_t *desc,
                      uint64_t descsz)
{
    const char *str = (const char *)desc;
    uint64_t val;
    unsigned int i;

    if ( type > XEN_ELFNOTE_MAX || !notes[type].name )
        return 0;
    c->k->notes_present |= 1U << type;

    if ( type == XEN_ELFNOTE_SUPPORTED_FEATURES )
    {
        /* A bitmap of 32-bit words, merged with FEATURES. */
        if ( !descsz || descsz % 4 )
            return note_fail(c, type, ": bad size");
        for ( i = 0; i < XENFEAT_NR_SUBMAPS && i < descsz / 4; i++ )
            c->k->features_supported[i] |= desc[4 * i] |
                (desc[4 * i + 1] << 8) | (desc[4 * i + 2] << 16) |
                ((uint32_t)desc[4 * i + 3] << 24);
        return 0;
    }

    if ( notes[type].str )
    {
        if ( strnlen(str, descsz) == descsz )
            return note_fail(c, type, ": string not terminated");
        return note_string(c, type, str, strnlen(str, descsz));
    }

    if ( !note_numeric(desc, descsz, &val) )
        return note_fail(c, type, ": bad size");
    note_number(c, type, val);

    return 0;
}

/*
 * Walk the notes in [off, off + len) of the file (4-byte aligned, as Xen
 * and Linux lay them out), handing those named "Xen" to parse_note().
 */
static int parse_notes(struct elf_ctx *c, uint64_t off, uint64_t len)
{
    while ( len )
    {
        struct elf64_note n;
        uint64_t namesz, step;
        const uint8_t *p = c->img + off;
        int rc;

        if ( len < sizeof(n) )
        {
            /* Only zero padding may follow the last note. */
            for ( ; len; len--, p++ )
                if ( *p )
                    return fail(c, -XEN_EINVAL, "truncated note");
            break;
        }
        if ( ++c->nr_notes > PV_ELF_MAX_NOTES )
            return fail(c, -XEN_E2BIG, "too many ELF notes");

        memcpy(&n, p, sizeof(n));
        namesz = ROUNDUP((uint64_t)n.n_namesz, 4);
        if ( namesz + n.n_descsz > len - sizeof(n) )
            return fail(c, -XEN_EINVAL, "bogus note size");

        if ( n.n_namesz == 4 && !memcmp(p + sizeof(n), "Xen", 4) )
        {
            rc = parse_note(c, n.n_type, p + sizeof(n) + namesz, n.n_descsz);
            if ( rc )
                return rc;
            c->k->has_xen_notes = true;
        }

        /* The last note's descriptor padding may be missing. */
        step = MIN(sizeof(n) + namesz + ROUNDUP((uint64_t)n.n_descsz, 4), len);
        off += step;
        len -= step;
    }

    return 0;
}

/*
 * Xen notes come from PT_NOTE segments (but not one at offset 0, which
 * old binutils produced), else from SHT_NOTE sections (elf_xen_parse()).
 */
static int find_notes(struct elf_ctx *c, const struct elf64_ehdr *eh)
{
    struct elf64_phdr ph;
    struct elf64_shdr sh;
    unsigned int i;
    int rc;

    for ( i = 0; i < eh->e_phnum; i++ )
    {
        read_phdr(c, eh, i, &ph);
        if ( ph.p_type != PT_NOTE || !ph.p_offset )
            continue;
        if ( !in_file(c, ph.p_offset, ph.p_filesz) )
        {
            why_str(c, "note ");
            return fail_seg(c, -XEN_EINVAL, i, " outside the file");
        }
        rc = parse_notes(c, ph.p_offset, ph.p_filesz);
        if ( rc )
            return rc;
    }

    for ( i = 1; !c->k->has_xen_notes && i < c->shnum; i++ )
    {
        read_shdr(c, i, &sh);
        if ( sh.sh_type != SHT_NOTE )
            continue;
        if ( !in_file(c, sh.sh_offset, sh.sh_size) )
        {
            why_str(c, "note section ");
            why_num(c, i);
            why_str(c, " outside the file");
            return -XEN_EINVAL;
        }
        rc = parse_notes(c, sh.sh_offset, sh.sh_size);
        if ( rc )
            return rc;
    }

    return 0;
}

/* ------------------------------------------------------------ __xen_guest */

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
static int find_legacy(struct elf_ctx *c)
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

/* Xen's elf_xen_note_check(): what a PV kernel must say about itself. */
static int check_xen_info(struct elf_ctx *c)
{
    const struct pv_kernel *k = c->k;

    if ( !k->has_xen_notes && !k->has_legacy_guest_string )
        return fail(c, -XEN_ENOEXEC, "not a Xen PV kernel: "
                    "no Xen notes or __xen_guest section");
    if ( strncmp(k->loader, "generic", 7) && strncmp(k->guest_os, "linux", 5) )
        return fail(c, -XEN_ENOEXEC,
                    "neither LOADER \"generic\" nor GUEST_OS \"linux\"");
    if ( strncmp(k->xen_version, "xen-3.0", 7) )
        return fail(c, -XEN_ENOEXEC, "XEN_VERSION is not \"xen-3.0\"");

    return 0;
}

/* ------------------------------------------------------------ placement */

static bool guest_range(uint64_t start, uint64_t end)
{
    return (start < GUEST_LOW_END && end <= GUEST_LOW_END) ||
           start >= GUEST_HIGH_START;
}

/*
 * Xen's elf_xen_addr_calc_check() and elf_load_binary(): each segment is
 * copied to p_paddr - PADDR_OFFSET + VIRT_BASE (p_vaddr plays no part:
 * Linux's per-CPU segment has p_vaddr 0).
 */
static int place_segments(struct elf_ctx *c)
{
    struct pv_kernel *k = c->k;
    unsigned int i, j;

    if ( c->paddr_offset_set && !c->virt_base_set )
        return fail(c, -XEN_EINVAL, "PADDR_OFFSET set, VIRT_BASE unset");
    if ( k->virt_base & PAGE_MASK_4K )
        return fail(c, -XEN_EINVAL, "VIRT_BASE not page-aligned");
    if ( !c->paddr_offset_set )
        k->paddr_offset = k->has_xen_notes ? 0 : k->virt_base;

    k->vstart = ~0ULL;
    for ( i = 0; i < k->nr_segments; i++ )
    {
        struct pv_elf_segment *s = &k->seg[i];
        uint64_t rel;

        if ( s->paddr < k->paddr_offset )
            return fail_seg(c, -XEN_EINVAL, s->phdr,
                            ": paddr below PADDR_OFFSET");
        rel = s->paddr - k->paddr_offset;
        if ( rel > ~k->virt_base || s->memsz > ~(k->virt_base + rel) )
            return fail_seg(c, -XEN_EINVAL, s->phdr, ": address overflow");
        s->dest = k->virt_base + rel;
        if ( !guest_range(s->dest, s->dest + s->memsz) )
            return fail_seg(c, -XEN_EINVAL, s->phdr,
                            " outside the guest's address range");

        k->vstart = MIN(k->vstart, s->dest);
        k->vend = MAX(k->vend, s->dest + s->memsz);

        for ( j = 0; j < i; j++ )
            if ( s->memsz && k->seg[j].memsz &&
                 s->dest < k->seg[j].dest + k->seg[j].memsz &&
                 k->seg[j].dest < s->dest + s->memsz )
            {
                fail_seg(c, -XEN_EINVAL, s->phdr, " overlaps segment ");
                why_num(c, k->seg[j].phdr);
                return -XEN_EINVAL;
            }
    }

    if ( k->vend - k->vstart > PV_ELF_MAX_SPAN )
        return fail(c, -XEN_E2BIG, "image spans more than 1 GiB");

    return 0;
}

static int check_addresses(struct elf_ctx *c, const struct elf64_ehdr *eh)
{
    struct pv_kernel *k = c->k;

    if ( !c->entry_set )
        k->entry = eh->e_entry;
    if ( k->entry < k->vstart || k->entry >= k->vend )
        return fail(c, -XEN_EINVAL, "entry point outside the image");

    if ( k->hypercall_page != PV_ELF_UNSET )
    {
        if ( k->hypercall_page & PAGE_MASK_4K )
            return fail(c, -XEN_EINVAL, "HYPERCALL_PAGE not page-aligned");
        if ( k->hypercall_page < k->vstart || k->hypercall_page >= k->vend )
            return fail(c, -XEN_EINVAL, "HYPERCALL_PAGE outside the image");
    }

    if ( k->init_p2m != PV_ELF_UNSET &&
         k->init_p2m >= k->vstart && k->init_p2m < k->vend )
        return fail(c, -XEN_EINVAL, "INIT_P2M inside the image");

    return 0;
}

/* ------------------------------------------------------------ entry */

static int parse_image(struct elf_ctx *c)
{
    struct elf64_ehdr eh;
    int rc;

    if ( c->size >= 4 && memcmp(c->img, "\177ELF", 4) )
        return fail(c, -XEN_ENOEXEC, "not an ELF image");
    if ( c->size < sizeof(eh) )
        return fail(c, -XEN_EINVAL, "truncated ELF header");
    memcpy(&eh, c->img, sizeof(eh));

    if ( (rc = check_ehdr(c, &eh)) || (rc = parse_segments(c, &eh)) ||
         (rc = find_notes(c, &eh)) )
        return rc;
    if ( !c->k->has_xen_notes && (rc = find_legacy(c)) )
        return rc;
    if ( (rc = check_xen_info(c)) || (rc = place_segments(c)) )
        return rc;

    return check_addresses(c, &eh);
}

int pv_elf_parse(const void *image, size_t size, struct pv_kernel *k,
                 const char **why)
{
    struct elf_ctx c = { .img = image, .size = size, .k = k };
    int rc;

    *k = (struct pv_kernel){
        .hypercall_page = PV_ELF_UNSET,
        .init_p2m = PV_ELF_UNSET,
        .hv_start_low = PV_ELF_UNSET,
    };
    rc = parse_image(&c);
    if ( why )
        *why = rc ? c.why : NULL;

    return rc;
}
