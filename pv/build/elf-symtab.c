/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * BSD_SYMTAB (pv/build/elf.h): which of the kernel's sections are its
 * symbol table, checked as hostile input, and the header that Xen's libelf
 * writes before it (elf_parse_bsdsyms(), elf_load_bsdsyms()).
 */
#include "pv/build/elf-internal.h"

/*
 * Xen builds the header in a packed struct of unions, zeroed (XSA-194):
 * the size word, an ELF header slot of 64 bytes and three section header
 * slots of 64, whatever the width.  It writes the size word and the ELF
 * header's whole slot, then the section headers one after the other at
 * the kernel's width, from e_shoff 64; the symtab goes after the whole
 * struct, rounded to the width's 8 or 4 bytes (elf_round_up()).
 */
#define XEN_EHDR_SLOT       64
#define XEN_HDR_STRUCT      (4 + XEN_EHDR_SLOT + 3 * 64)
#define SHDRS_AT            (4 + XEN_EHDR_SLOT)
#define SYMTAB_INDEX        1
#define STRTAB_INDEX        2

static uint64_t elf_round(const struct elf_ctx *c, uint64_t x)
{
    return ROUNDUP(x, c->elf32 ? 4 : 8);
}

static void put_ehdr(const struct elf_ctx *c, uint8_t *p,
                     const struct elf64_ehdr *eh)
{
    struct elf32_ehdr e;

    if ( !c->elf32 )
    {
        memcpy(p, eh, sizeof(*eh));
        return;
    }
    memcpy(e.e_ident, eh->e_ident, EI_NIDENT);
    e.e_type = eh->e_type;
    e.e_machine = eh->e_machine;
    e.e_version = eh->e_version;
    e.e_entry = eh->e_entry;
    e.e_phoff = eh->e_phoff;
    e.e_shoff = eh->e_shoff;
    e.e_flags = eh->e_flags;
    e.e_ehsize = eh->e_ehsize;
    e.e_phentsize = eh->e_phentsize;
    e.e_phnum = eh->e_phnum;
    e.e_shentsize = eh->e_shentsize;
    e.e_shnum = eh->e_shnum;
    e.e_shstrndx = eh->e_shstrndx;
    memcpy(p, &e, sizeof(e));
}

/* Section header i of the table at p (whose entries are the width's). */
static void put_shdr(const struct elf_ctx *c, uint8_t *p, unsigned int i,
                     const struct elf64_shdr *sh)
{
    struct elf32_shdr s;

    if ( !c->elf32 )
    {
        memcpy(p + i * sizeof(*sh), sh, sizeof(*sh));
        return;
    }
    s = (struct elf32_shdr){
        .sh_name = sh->sh_name, .sh_type = sh->sh_type,
        .sh_flags = sh->sh_flags, .sh_addr = sh->sh_addr,
        .sh_offset = sh->sh_offset, .sh_size = sh->sh_size,
        .sh_link = sh->sh_link, .sh_info = sh->sh_info,
        .sh_addralign = sh->sh_addralign, .sh_entsize = sh->sh_entsize,
    };
    memcpy(p + i * sizeof(s), &s, sizeof(s));
}

/*
 * The header: the kernel's own ELF header with no program headers and
 * three sections, the symtab's and strtab's headers as the kernel has
 * them but for where they now are (and the symtab's link).  Offsets are
 * from the ELF header, 4 bytes after start.
 */
static void make_header(const struct elf_ctx *c, const struct elf64_ehdr *eh,
                        struct elf64_shdr sym, struct elf64_shdr str)
{
    struct pv_elf_symtab *t = &c->k->symtab;
    uint64_t base = t->start + 4;
    uint32_t size = t->str_dest + t->str_size - base;
    struct elf64_ehdr h = *eh;

    h.e_version = EV_CURRENT;
    h.e_phoff = 0;
    h.e_phentsize = 0;
    h.e_phnum = 0;
    h.e_shoff = XEN_EHDR_SLOT;
    h.e_ehsize = c->elf32 ? sizeof(struct elf32_ehdr)
                          : sizeof(struct elf64_ehdr);
    h.e_shentsize = c->elf32 ? sizeof(struct elf32_shdr)
                             : sizeof(struct elf64_shdr);
    h.e_shnum = 3;
    h.e_shstrndx = 0;
    sym.sh_offset = t->sym_dest - base;
    sym.sh_link = STRTAB_INDEX;
    str.sh_offset = t->str_dest - base;

    memset(t->hdr, 0, sizeof(t->hdr));
    memcpy(t->hdr, &size, sizeof(size));
    put_ehdr(c, t->hdr + 4, &h);
    put_shdr(c, t->hdr + SHDRS_AT, SYMTAB_INDEX, &sym);
    put_shdr(c, t->hdr + SHDRS_AT, STRTAB_INDEX, &str);
}

/*
 * Where the table goes: after the image, each piece rounded to the
 * width.  Xen sizes a 32-bit kernel's table 68 bytes short of what it
 * writes (section header slots counted at 40 bytes, not 64), and loses
 * the strtab when that crosses a page (NetBSD patches its Xen); the range
 * here is what is written, the same as Xen's for a 64-bit kernel.
 */
static const char *place_symtab(struct elf_ctx *c, uint64_t sym_size,
                                uint64_t str_size)
{
    struct pv_elf_symtab *t = &c->k->symtab;

    if ( sym_size > PV_ELF_MAX_SPAN || str_size > PV_ELF_MAX_SPAN )
        return "the symtab or strtab is larger than 1 GiB";
    /* The header rounded, both tables, three more roundings: no wrap. */
    if ( c->k->vend >
         ~0ULL - (XEN_HDR_STRUCT + 8 + sym_size + str_size + 3 * 8) )
        return "it would end past the top of the address space";

    t->start = elf_round(c, c->k->vend);
    t->sym_dest = t->start + elf_round(c, XEN_HDR_STRUCT);
    t->sym_size = sym_size;
    t->str_dest = elf_round(c, t->sym_dest + sym_size);
    t->str_size = str_size;
    t->end = elf_round(c, t->str_dest + str_size);
    t->hdr_len = t->sym_dest - t->start;
    if ( !guest_range(c->k, c->k->vstart, t->end) )
        return "it would end outside the guest's address range";

    return NULL;
}

/*
 * Xen's elf_init() takes the first SHT_SYMTAB section (from 1) and gives
 * up if its sh_link names no section; elf_parse_bsdsyms() if that is not
 * an SHT_STRTAB.  Both must lie in the file here too (libxc would skip
 * the copy and leave zeros).
 */
static const char *choose_sections(struct elf_ctx *c, struct elf64_shdr *sym,
                                   struct elf64_shdr *str)
{
    unsigned int i;

    for ( i = 1; i < c->shnum; i++ )
    {
        read_shdr(c, i, sym);
        if ( sym->sh_type == SHT_SYMTAB )
            break;
    }
    if ( i >= c->shnum )
        return "the kernel has no SHT_SYMTAB section";
    if ( !sym->sh_link || sym->sh_link >= c->shnum )
        return "the symtab's sh_link names no section";
    read_shdr(c, sym->sh_link, str);
    if ( str->sh_type != SHT_STRTAB )
        return "the symtab's sh_link is not an SHT_STRTAB section";
    if ( !in_file(c, sym->sh_offset, sym->sh_size) )
        return "the symtab lies outside the file";
    if ( !in_file(c, str->sh_offset, str->sh_size) )
        return "the strtab lies outside the file";

    return NULL;
}

void find_symtab(struct elf_ctx *c, const struct elf64_ehdr *eh)
{
    struct pv_kernel *k = c->k;
    struct elf64_shdr sym, str;
    const char *why;

    if ( !k->bsd_symtab )
        return;
    why = choose_sections(c, &sym, &str);
    if ( !why )
        why = place_symtab(c, sym.sh_size, str.sh_size);
    if ( why )
    {
        k->symtab = (struct pv_elf_symtab){ .loaded = false };
        k->symtab_why = why;
        return;
    }

    k->symtab.sym_off = sym.sh_offset;
    k->symtab.str_off = str.sh_offset;
    make_header(c, eh, sym, str);
    k->symtab.loaded = true;
}
