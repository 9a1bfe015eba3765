/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a PV kernel says about itself (pv/build/elf.h): the Xen ELF notes, their
 * FEATURES (also the legacy string's, pv/build/elf-legacy.c), and Xen's checks.
 */
#include "pv/build/elf-internal.h"

#include <xen/errno.h>

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

/* ------------------------------------------------------------ features */

/*
 * A FEATURES string: names from feature_names[] separated by '|', each
 * with a leading '!' if required.  Unknown names are ignored unless
 * required (Xen's elf_xen_parse_features()).
 */
int parse_features(struct elf_ctx *c, const char *s, size_t len)
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

    /*
     * A string may fill its descriptor with no NUL: Linux's FEATURES is
     * such an .ascii, which Xen reads up to the NUL in the note's padding.
     * The descriptor's bytes are the whole string either way.
     */
    if ( notes[type].str )
        return note_string(c, type, str, strnlen(str, descsz));

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
        /*
         * Xen's libelf bounds a note by the file, not by its segment
         * (which only says where notes start), and reads a descriptor no
         * further than it needs: Debian's grub-i386-xen.bin ends its
         * PT_NOTE, and the file, 8 bytes into PAE_MODE's 12-byte "yes".
         * Such a note is the last; its name must be whole, its descriptor
         * is what the file has of it (a number cut short is then refused
         * as the wrong size, a string read up to its NUL).
         */
        if ( namesz + n.n_descsz > len - sizeof(n) )
        {
            if ( !in_file(c, off + sizeof(n), namesz) )
                return fail(c, -XEN_EINVAL, "bogus note size");
            n.n_descsz = MIN((uint64_t)n.n_descsz,
                             c->size - (off + sizeof(n) + namesz));
        }

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
int find_notes(struct elf_ctx *c, const struct elf64_ehdr *eh)
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

/* Xen's elf_xen_note_check(): what a PV kernel must say about itself. */
int check_xen_info(struct elf_ctx *c)
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
