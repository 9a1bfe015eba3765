/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of BSD_SYMTAB (pv/build/elf-symtab.c): kernels of both widths
 * built in memory with a symbol table, the range and header Xen's libelf
 * would load after them, read back as a BSD kernel reads them, and one
 * case per rule that leaves a hostile table unloaded.  `test-elf-symtab
 * --write-corpus DIR` adds the fuzzer's seeds for it.
 */
#include "tests/unit/unit.h"

#include <stdint.h>
#include <sys/mman.h>

#include "pv/build/elf.c"
#include "pv/build/elf-notes.c"
#include "pv/build/elf-legacy.c"
#include "pv/build/elf-symtab.c"

/* ------------------------------------------------------------ builder */

#define IMG_MAX     8192
#define SEG_VA      0x100000ULL
#define SEG_MEMSZ   0x1003ULL       /* the image ends off a word boundary */

/* Sections of the default kernel: null, .symtab, .strtab, .shstrtab. */
enum { SEC_SYMTAB = 1, SEC_STRTAB, SEC_SHSTRTAB, SEC_LEGACY, NR_SEC_MAX };

static const char strtab[] = "\0alpha\0beta\0x";        /* 13 bytes */
static const char shstrtab[] = "\0.symtab\0.strtab\0.shstrtab\0__xen_guest";

struct kernel {
    uint8_t *b;                 /* IMG_MAX bytes, or a bigger mapping */
    size_t len;
    bool elf32;
    uint64_t seg_va, seg_memsz; /* its one PT_LOAD */
    size_t sym_off, str_off, shstr_off, legacy_off;
    unsigned int nr_sec;
    struct elf64_shdr sec[NR_SEC_MAX + 1];  /* written at either width */
    uint64_t e_shoff;
};

static _Alignas(8) uint8_t image_buf[IMG_MAX];

static size_t put(struct kernel *im, const void *p, size_t len, size_t align)
{
    size_t off = ROUNDUP(im->len, align);

    memset(im->b + im->len, 0, off - im->len);
    memcpy(im->b + off, p, len);
    im->len = off + len;
    return off;
}

static size_t put_note(struct kernel *im, uint32_t type, const char *s)
{
    struct elf64_note n = { 4, strlen(s) + 1, type };
    size_t off = put(im, &n, sizeof(n), 4);

    put(im, "Xen", 4, 4);
    put(im, s, n.n_descsz, 4);
    im->len = ROUNDUP(im->len, 4);
    return off;
}

/* Symbol i: name offset, value, size, type; at the kernel's width. */
static void put_symbols(struct kernel *im)
{
    static const struct { uint32_t name; uint64_t value, size; uint8_t info; }
        syms[] = { { 0 }, { 1, SEG_VA + 0x10, 0x20, 0x12 },
                   { 7, SEG_VA + 0x40, 8, 0x11 } };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(syms); i++ )
    {
        size_t off;

        if ( im->elf32 )
        {
            struct { uint32_t name, value, size; uint8_t info, other;
                     uint16_t shndx; } s = {
                syms[i].name, syms[i].value, syms[i].size, syms[i].info,
                0, i ? 1 : 0 };

            off = put(im, &s, sizeof(s), 4);
        }
        else
        {
            struct { uint32_t name; uint8_t info, other; uint16_t shndx;
                     uint64_t value, size; } s = {
                syms[i].name, syms[i].info, 0, i ? 1 : 0, syms[i].value,
                syms[i].size };

            off = put(im, &s, sizeof(s), 8);
        }
        if ( !i )
            im->sym_off = off;
    }
}

static unsigned int sym_size(const struct kernel *im)
{
    return im->elf32 ? 16 : 24;
}

/*
 * A kernel with one loadable segment, the notes a generic PV kernel needs
 * plus BSD_SYMTAB (or, with legacy, a __xen_guest string instead), a
 * 3-symbol table, and the default section headers in im->sec, which
 * write_sections() lays down (a test may change them first).
 */
static void build(struct kernel *im, bool elf32, const char *legacy,
                  bool bsd_symtab)
{
    struct elf64_phdr ph[2] = {
        { .p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X,
          .p_vaddr = im->seg_va ?: SEG_VA, .p_paddr = im->seg_va ?: SEG_VA,
          .p_filesz = 0x100, .p_memsz = im->seg_memsz ?: SEG_MEMSZ,
          .p_align = 0x1000 },
        { .p_type = PT_NOTE, .p_flags = PF_R, .p_align = 4 },
    };
    size_t ehsize = elf32 ? sizeof(struct elf32_ehdr)
                          : sizeof(struct elf64_ehdr);
    size_t phsize = elf32 ? sizeof(struct elf32_phdr)
                          : sizeof(struct elf64_phdr);
    unsigned int i, nr_ph = legacy ? 1 : 2;
    uint64_t seg_va = ph[0].p_vaddr, seg_memsz = ph[0].p_memsz;

    if ( !im->b )
        im->b = image_buf;
    memset(im->b, 0, IMG_MAX);
    *im = (struct kernel){ .b = im->b, .elf32 = elf32, .seg_va = seg_va,
                           .seg_memsz = seg_memsz };
    im->len = ehsize + nr_ph * phsize;

    if ( !legacy )
    {
        ph[1].p_offset = put_note(im, XEN_ELFNOTE_GUEST_OS, "test");
        put_note(im, XEN_ELFNOTE_XEN_VERSION, "xen-3.0");
        put_note(im, XEN_ELFNOTE_LOADER, "generic");
        if ( elf32 )
            put_note(im, XEN_ELFNOTE_PAE_MODE, "yes");
        if ( bsd_symtab )
            put_note(im, XEN_ELFNOTE_BSD_SYMTAB, "yes");
        ph[1].p_filesz = ph[1].p_memsz = im->len - ph[1].p_offset;
    }
    ph[0].p_offset = ROUNDUP(im->len, 16);
    memset(im->b + ph[0].p_offset, 0x90, ph[0].p_filesz);
    im->len = ph[0].p_offset + ph[0].p_filesz;

    put_symbols(im);
    im->str_off = put(im, strtab, sizeof(strtab) - 1, 1);
    im->shstr_off = put(im, shstrtab, sizeof(shstrtab), 1);
    if ( legacy )
        im->legacy_off = put(im, legacy, strlen(legacy) + 1, 1);

    im->nr_sec = legacy ? SEC_LEGACY + 1 : SEC_SHSTRTAB + 1;
    memset(im->sec, 0, sizeof(im->sec));
    im->sec[SEC_SYMTAB] = (struct elf64_shdr){
        .sh_name = 1, .sh_type = SHT_SYMTAB, .sh_offset = im->sym_off,
        .sh_size = 3 * sym_size(im), .sh_link = SEC_STRTAB, .sh_info = 1,
        .sh_addralign = elf32 ? 4 : 8, .sh_entsize = sym_size(im) };
    im->sec[SEC_STRTAB] = (struct elf64_shdr){
        .sh_name = 9, .sh_type = SHT_STRTAB, .sh_offset = im->str_off,
        .sh_size = sizeof(strtab) - 1, .sh_addralign = 1 };
    im->sec[SEC_SHSTRTAB] = (struct elf64_shdr){
        .sh_name = 17, .sh_type = SHT_STRTAB, .sh_offset = im->shstr_off,
        .sh_size = sizeof(shstrtab), .sh_addralign = 1 };
    if ( legacy )
        im->sec[SEC_LEGACY] = (struct elf64_shdr){
            .sh_name = 27, .sh_type = 1, .sh_offset = im->legacy_off,
            .sh_size = strlen(legacy) + 1, .sh_addralign = 1 };

    /* The file header: odd e_ident padding and e_flags, kept by Xen. */
    if ( elf32 )
    {
        struct elf32_ehdr eh = {
            .e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB, 1,
                         0, 0, 0xa5 },
            .e_type = ET_EXEC, .e_machine = EM_386, .e_version = 1,
            .e_entry = SEG_VA + 0x10, .e_phoff = ehsize, .e_flags = 0x1234,
            .e_ehsize = ehsize, .e_phentsize = phsize, .e_phnum = nr_ph,
            .e_shentsize = sizeof(struct elf32_shdr),
            .e_shstrndx = SEC_SHSTRTAB,
        };

        memcpy(im->b, &eh, sizeof(eh));
        for ( i = 0; i < nr_ph; i++ )
        {
            struct elf32_phdr p = {
                .p_type = ph[i].p_type, .p_offset = ph[i].p_offset,
                .p_vaddr = ph[i].p_vaddr, .p_paddr = ph[i].p_paddr,
                .p_filesz = ph[i].p_filesz, .p_memsz = ph[i].p_memsz,
                .p_flags = ph[i].p_flags, .p_align = ph[i].p_align,
            };

            memcpy(im->b + ehsize + i * phsize, &p, sizeof(p));
        }
    }
    else
    {
        struct elf64_ehdr eh = {
            .e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, 1,
                         0, 0, 0xa5 },
            .e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = 1,
            .e_entry = SEG_VA + 0x10, .e_phoff = ehsize, .e_flags = 0x1234,
            .e_ehsize = ehsize, .e_phentsize = phsize, .e_phnum = nr_ph,
            .e_shentsize = sizeof(struct elf64_shdr),
            .e_shstrndx = SEC_SHSTRTAB,
        };

        memcpy(im->b, &eh, sizeof(eh));
        memcpy(im->b + ehsize, ph, nr_ph * phsize);
    }
}

/* The section header table, at the end, and e_shoff / e_shnum for it. */
static void write_sections(struct kernel *im)
{
    unsigned int i;
    uint16_t shnum = im->nr_sec;

    im->len = ROUNDUP(im->len, 8);
    im->e_shoff = im->len;
    for ( i = 0; i < im->nr_sec; i++ )
    {
        const struct elf64_shdr *s = &im->sec[i];

        if ( im->elf32 )
        {
            struct elf32_shdr h = {
                .sh_name = s->sh_name, .sh_type = s->sh_type,
                .sh_flags = s->sh_flags, .sh_addr = s->sh_addr,
                .sh_offset = s->sh_offset, .sh_size = s->sh_size,
                .sh_link = s->sh_link, .sh_info = s->sh_info,
                .sh_addralign = s->sh_addralign, .sh_entsize = s->sh_entsize,
            };

            put(im, &h, sizeof(h), 1);
        }
        else
            put(im, s, sizeof(*s), 1);
    }
    if ( im->elf32 )
    {
        uint32_t shoff = im->e_shoff;

        memcpy(im->b + offsetof(struct elf32_ehdr, e_shoff), &shoff, 4);
        memcpy(im->b + offsetof(struct elf32_ehdr, e_shnum), &shnum, 2);
    }
    else
    {
        memcpy(im->b + offsetof(struct elf64_ehdr, e_shoff), &im->e_shoff, 8);
        memcpy(im->b + offsetof(struct elf64_ehdr, e_shnum), &shnum, 2);
    }
}

static void parse_ok(const struct kernel *im, struct pv_kernel *k)
{
    const char *why = NULL;
    int rc = pv_elf_parse(im->b, im->len, k, &why);

    CHECK_EQ(rc, 0);
    if ( rc )
        printf("  why: %s\n", why);
}

/* ------------------------------------------------------------ reading */

static uint64_t rd(const uint8_t *p, unsigned int n)
{
    uint64_t v = 0;

    memcpy(&v, p, n);
    return v;
}

/*
 * What the builder writes at [t->start, t->end): the header, the two
 * tables, zeros elsewhere.  Returns a buffer indexed from t->start.
 */
static uint8_t *load(const struct kernel *im, const struct pv_kernel *k)
{
    const struct pv_elf_symtab *t = &k->symtab;
    uint8_t *m = calloc(1, t->end - t->start);

    memcpy(m, t->hdr, t->hdr_len);
    memcpy(m + (t->sym_dest - t->start), im->b + t->sym_off, t->sym_size);
    memcpy(m + (t->str_dest - t->start), im->b + t->str_off, t->str_size);
    return m;
}

/*
 * Read it back as FreeBSD's xen_pv_parse_symtab() does: the size word,
 * then an ELF header, section headers at e_shoff, the first SHT_SYMTAB
 * and the section its sh_link names, offsets from the ELF header.  Check
 * everything Xen's elf_load_bsdsyms() sets.
 */
static void check_loaded(const struct kernel *im, const struct pv_kernel *k)
{
    const struct pv_elf_symtab *t = &k->symtab;
    bool w32 = im->elf32;
    unsigned int es = w32 ? 52 : 64, ss = w32 ? 40 : 64, r = w32 ? 4 : 8;
    uint8_t *m = load(im, k), *eh = m + 4, *sh1, *sh2, *sym;
    uint64_t str_off, sym_off, i;

    CHECK(t->loaded);
    CHECK_EQ(t->start, ROUNDUP(SEG_VA + SEG_MEMSZ, r));
    CHECK_EQ(t->hdr_len, w32 ? 260 : 264);
    CHECK_EQ(t->sym_dest, t->start + t->hdr_len);
    CHECK_EQ(t->sym_size, 3 * sym_size(im));
    CHECK_EQ(t->str_dest, ROUNDUP(t->sym_dest + t->sym_size, r));
    CHECK_EQ(t->str_size, sizeof(strtab) - 1);
    CHECK_EQ(t->end, ROUNDUP(t->str_dest + t->str_size, r));

    /* The size word: from the ELF header to the strtab's end, unrounded. */
    CHECK_EQ(rd(m, 4), t->str_dest + t->str_size - (t->start + 4));

    /* The ELF header: the kernel's own, but for what Xen rewrites. */
    CHECK(!memcmp(eh, im->b, 16));          /* e_ident, padding and all */
    CHECK_EQ(rd(eh + 16, 2), ET_EXEC);
    CHECK_EQ(rd(eh + 18, 2), w32 ? EM_386 : EM_X86_64);
    CHECK_EQ(rd(eh + 20, 4), EV_CURRENT);
    CHECK_EQ(rd(eh + 24, w32 ? 4 : 8), SEG_VA + 0x10);      /* e_entry */
    CHECK_EQ(rd(eh + (w32 ? 28 : 32), w32 ? 4 : 8), 0);     /* e_phoff */
    CHECK_EQ(rd(eh + (w32 ? 32 : 40), w32 ? 4 : 8), 64);    /* e_shoff */
    CHECK_EQ(rd(eh + (w32 ? 36 : 48), 4), 0x1234);          /* e_flags */
    CHECK_EQ(rd(eh + (w32 ? 40 : 52), 2), es);              /* e_ehsize */
    CHECK_EQ(rd(eh + (w32 ? 42 : 54), 2), 0);               /* e_phentsize */
    CHECK_EQ(rd(eh + (w32 ? 44 : 56), 2), 0);               /* e_phnum */
    CHECK_EQ(rd(eh + (w32 ? 46 : 58), 2), ss);              /* e_shentsize */
    CHECK_EQ(rd(eh + (w32 ? 48 : 60), 2), 3);               /* e_shnum */
    CHECK_EQ(rd(eh + (w32 ? 50 : 62), 2), 0);               /* e_shstrndx */
    for ( i = es; i < 64; i++ )             /* XSA-194's hole: zeros */
        CHECK_EQ(eh[i], 0);

    /* Section headers: null, symtab (link 2), strtab, as the kernel's. */
    for ( i = 0; i < ss; i++ )
        CHECK_EQ(eh[64 + i], 0);
    sh1 = eh + 64 + ss;
    sh2 = sh1 + ss;
    CHECK_EQ(rd(sh1, 4), 1);                                /* sh_name */
    CHECK_EQ(rd(sh1 + 4, 4), SHT_SYMTAB);
    sym_off = rd(sh1 + (w32 ? 16 : 24), w32 ? 4 : 8);
    CHECK_EQ(sym_off, t->sym_dest - (t->start + 4));
    CHECK_EQ(rd(sh1 + (w32 ? 20 : 32), w32 ? 4 : 8), t->sym_size);
    CHECK_EQ(rd(sh1 + (w32 ? 24 : 40), 4), 2);              /* sh_link */
    CHECK_EQ(rd(sh1 + (w32 ? 28 : 44), 4), 1);              /* sh_info */
    CHECK_EQ(rd(sh1 + (w32 ? 32 : 48), w32 ? 4 : 8), r);    /* addralign */
    CHECK_EQ(rd(sh1 + (w32 ? 36 : 56), w32 ? 4 : 8), sym_size(im));
    CHECK_EQ(rd(sh2, 4), 9);
    CHECK_EQ(rd(sh2 + 4, 4), SHT_STRTAB);
    str_off = rd(sh2 + (w32 ? 16 : 24), w32 ? 4 : 8);
    CHECK_EQ(str_off, t->str_dest - (t->start + 4));
    CHECK_EQ(rd(sh2 + (w32 ? 20 : 32), w32 ? 4 : 8), sizeof(strtab) - 1);
    CHECK_EQ(rd(sh2 + (w32 ? 24 : 40), 4), 0);
    for ( i = 4 + 64 + 3 * ss; i < t->hdr_len; i++ )
        CHECK_EQ(m[i], 0);

    /* The tables where the headers say, byte for byte. */
    CHECK(!memcmp(eh + sym_off, im->b + im->sym_off, t->sym_size));
    CHECK(!memcmp(eh + str_off, strtab, sizeof(strtab) - 1));
    sym = eh + sym_off + 2 * sym_size(im);      /* "beta" */
    CHECK_STR((char *)eh + str_off + rd(sym, 4), "beta");
    CHECK_EQ(rd(sym + (w32 ? 4 : 8), w32 ? 4 : 8), SEG_VA + 0x40);
    for ( i = t->sym_dest + t->sym_size; i < t->str_dest; i++ )
        CHECK_EQ(m[i - t->start], 0);
    free(m);
}

/* ------------------------------------------------------------ cases */

static struct kernel im;

static void symtab_elf64(void)
{
    struct pv_kernel k;

    build(&im, false, NULL, true);
    write_sections(&im);
    parse_ok(&im, &k);
    CHECK(k.bsd_symtab);
    CHECK(!k.symtab_why);
    check_loaded(&im, &k);
    CHECK_EQ(k.symtab.start, 0x101008);
    CHECK_EQ(k.symtab.sym_dest, 0x101110);
    CHECK_EQ(k.symtab.str_dest, 0x101158);
    CHECK_EQ(k.symtab.end, 0x101168);
    CHECK_EQ(k.vend, SEG_VA + SEG_MEMSZ);   /* the image alone */
}

static void symtab_elf32(void)
{
    struct pv_kernel k;

    build(&im, true, NULL, true);
    write_sections(&im);
    parse_ok(&im, &k);
    CHECK(k.compat);
    check_loaded(&im, &k);
    CHECK_EQ(k.symtab.start, 0x101004);
    CHECK_EQ(k.symtab.sym_dest, 0x101108);
    CHECK_EQ(k.symtab.str_dest, 0x101138);
    CHECK_EQ(k.symtab.end, 0x101148);
}

/* The legacy string's bare BSD_SYMTAB asks for it too (libelf-dominfo.c). */
static void symtab_legacy(void)
{
    struct pv_kernel k;
    unsigned int w;

    for ( w = 0; w < 2; w++ )
    {
        build(&im, w, w ? "GUEST_OS=x,XEN_VER=xen-3.0,LOADER=generic,"
                          "PAE=yes,BSD_SYMTAB"
                        : "GUEST_OS=x,XEN_VER=xen-3.0,LOADER=generic,"
                          "BSD_SYMTAB", true);
        write_sections(&im);
        parse_ok(&im, &k);
        CHECK(k.has_legacy_guest_string);
        check_loaded(&im, &k);
    }
}

/* No BSD_SYMTAB, or not "yes": nothing loaded, nothing to say. */
static void symtab_not_asked(void)
{
    struct pv_kernel k;

    build(&im, false, NULL, false);
    write_sections(&im);
    parse_ok(&im, &k);
    CHECK(!k.bsd_symtab);
    CHECK(!k.symtab.loaded);
    CHECK(!k.symtab_why);
}

/* Build the default kernel of width w, apply fix, expect why. */
#define CHECK_SKIPPED(w, fix, want) do {                                   \
    struct pv_kernel k_;                                                   \
    build(&im, (w), NULL, true);                                           \
    fix;                                                                   \
    write_sections(&im);                                                   \
    parse_ok(&im, &k_);                                                    \
    CHECK(k_.bsd_symtab);                                                  \
    CHECK(!k_.symtab.loaded);                                              \
    CHECK_STR(k_.symtab_why ? k_.symtab_why : "(null)", (want));           \
} while ( 0 )

static void hostile_sections(void)
{
    unsigned int w;

    for ( w = 0; w < 2; w++ )
    {
        CHECK_SKIPPED(w, im.nr_sec = 0,
                      "the kernel has no SHT_SYMTAB section");
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_type = SHT_NOBITS,
                      "the kernel has no SHT_SYMTAB section");
        /* Only section 0 a symtab: Xen looks from 1. */
        CHECK_SKIPPED(w, (im.sec[0] = im.sec[SEC_SYMTAB],
                          im.sec[SEC_SYMTAB].sh_type = SHT_NOBITS),
                      "the kernel has no SHT_SYMTAB section");
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_link = 0,
                      "the symtab's sh_link names no section");
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_link = im.nr_sec,
                      "the symtab's sh_link names no section");
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_link = 0xffffffff,
                      "the symtab's sh_link names no section");
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_link = SEC_SYMTAB,
                      "the symtab's sh_link is not an SHT_STRTAB section");
        CHECK_SKIPPED(w, im.sec[SEC_STRTAB].sh_type = SHT_NOTE,
                      "the symtab's sh_link is not an SHT_STRTAB section");
        /* A second, good symtab after a bad one: Xen takes the first. */
        CHECK_SKIPPED(w, (im.sec[im.nr_sec++] = im.sec[SEC_SYMTAB],
                          im.sec[SEC_SYMTAB].sh_link = 0),
                      "the symtab's sh_link names no section");
    }
}

static void hostile_sizes(void)
{
    unsigned int w;

    for ( w = 0; w < 2; w++ )
    {
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_offset = IMG_MAX,
                      "the symtab lies outside the file");
        CHECK_SKIPPED(w, im.sec[SEC_SYMTAB].sh_size = im.len,
                      "the symtab lies outside the file");
        CHECK_SKIPPED(w, im.sec[SEC_STRTAB].sh_size = 0xfffffff0,
                      "the strtab lies outside the file");
        CHECK_SKIPPED(w, im.sec[SEC_STRTAB].sh_offset = 0xfffffffc,
                      "the strtab lies outside the file");
        if ( !w )
        {
            /* Offset plus size wrapping past 2^64. */
            CHECK_SKIPPED(w, (im.sec[SEC_SYMTAB].sh_offset = 16,
                              im.sec[SEC_SYMTAB].sh_size = ~0ULL - 8),
                          "the symtab lies outside the file");
            CHECK_SKIPPED(w, im.sec[SEC_STRTAB].sh_size = 1ULL << 63,
                          "the strtab lies outside the file");
        }
    }
}

/* An image right below the end of guest address space: no room. */
static void hostile_placement(void)
{
    struct pv_kernel k;
    unsigned int memsz, loaded = 0;

    /* 32-bit: the table would reach the hypervisor's hole. */
    im = (struct kernel){ .seg_va = PV_COMPAT_VIRT_START - 0x1000,
                          .seg_memsz = 0xf00 };
    build(&im, true, NULL, true);
    write_sections(&im);
    memcpy(im.b + offsetof(struct elf32_ehdr, e_entry),
           &(uint32_t){ PV_COMPAT_VIRT_START - 0x1000 }, 4);
    parse_ok(&im, &k);
    CHECK(!k.symtab.loaded);
    CHECK_STR(k.symtab_why ?: "(null)",
              "it would end outside the guest's address range");

    /* 64-bit: the end of the lower canonical half. */
    im = (struct kernel){ .seg_va = (1ULL << 47) - 0x1000,
                          .seg_memsz = 0xf00 };
    build(&im, false, NULL, true);
    write_sections(&im);
    memcpy(im.b + offsetof(struct elf64_ehdr, e_entry),
           &(uint64_t){ (1ULL << 47) - 0x1000 }, 8);
    parse_ok(&im, &k);
    CHECK(!k.symtab.loaded);
    CHECK_STR(k.symtab_why ?: "(null)",
              "it would end outside the guest's address range");

    /* 64-bit: the top of the address space, where the end would wrap. */
    im = (struct kernel){ .seg_va = 0xfffffffffffff000ULL,
                          .seg_memsz = 0xff0 };
    build(&im, false, NULL, true);
    write_sections(&im);
    memcpy(im.b + offsetof(struct elf64_ehdr, e_entry),
           &(uint64_t){ 0xfffffffffffff000ULL }, 8);
    parse_ok(&im, &k);
    CHECK(!k.symtab.loaded);
    CHECK_STR(k.symtab_why ?: "(null)",
              "it would end past the top of the address space");

    /* Every end near the top: loaded without wrapping, or refused. */
    for ( memsz = 0xd00; memsz < 0x1000; memsz++ )
    {
        im = (struct kernel){ .seg_va = 0xfffffffffffff000ULL,
                              .seg_memsz = memsz };
        build(&im, false, NULL, true);
        write_sections(&im);
        memcpy(im.b + offsetof(struct elf64_ehdr, e_entry),
               &(uint64_t){ 0xfffffffffffff000ULL }, 8);
        parse_ok(&im, &k);
        CHECK(!k.symtab.loaded ||
              (k.symtab.start >= k.vend && k.symtab.end > k.symtab.start &&
               k.symtab.str_dest + k.symtab.str_size <= k.symtab.end));
        loaded += k.symtab.loaded;
    }
    CHECK(loaded > 0 && loaded < 0x300);

    /* And with room after it, the high half is fine. */
    im = (struct kernel){ .seg_va = 0xffffffff80000000ULL };
    build(&im, false, NULL, true);
    write_sections(&im);
    memcpy(im.b + offsetof(struct elf64_ehdr, e_entry),
           &(uint64_t){ 0xffffffff80000000ULL }, 8);
    parse_ok(&im, &k);
    CHECK(k.symtab.loaded);
    CHECK_EQ(k.symtab.start, 0xffffffff80001008ULL);
    im = (struct kernel){ 0 };
}

/*
 * A symtab over 1 GiB, inside a file that big (a sparse mapping: nothing
 * reads the table's bytes at parse time).
 */
static void hostile_huge(void)
{
    size_t size = (3UL << 30);
    uint8_t *big = mmap(NULL, size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    struct pv_kernel k;

    CHECK(big != MAP_FAILED);
    if ( big == MAP_FAILED )
        return;
    im = (struct kernel){ .b = big };
    build(&im, false, NULL, true);
    im.sec[SEC_SYMTAB].sh_offset = 1UL << 30;
    im.sec[SEC_SYMTAB].sh_size = (1UL << 30) + 24;
    write_sections(&im);
    CHECK_EQ(pv_elf_parse(big, size, &k, NULL), 0);
    CHECK(!k.symtab.loaded);
    CHECK_STR(k.symtab_why ?: "(null)",
              "the symtab or strtab is larger than 1 GiB");
    munmap(big, size);
    im = (struct kernel){ 0 };
}

/* Every section header count and every sh_link: never a read outside. */
static void exhaustive_links(void)
{
    unsigned int w, link, nr;
    struct pv_kernel k;

    for ( w = 0; w < 2; w++ )
        for ( nr = 0; nr <= 4; nr++ )
            for ( link = 0; link < 6; link++ )
            {
                uint8_t *copy;

                build(&im, w, NULL, true);
                im.sec[SEC_SYMTAB].sh_link = link;
                im.nr_sec = nr;
                write_sections(&im);
                copy = malloc(im.len);
                memcpy(copy, im.b, im.len);
                CHECK_EQ(pv_elf_parse(copy, im.len, &k, NULL), 0);
                /* .shstrtab is a string table as good as any. */
                CHECK_EQ(k.symtab.loaded, nr > SEC_STRTAB && link < nr &&
                                          (link == SEC_STRTAB ||
                                           link == SEC_SHSTRTAB));
                CHECK(k.symtab.loaded || k.symtab_why);
                free(copy);
            }
}

/* ------------------------------------------------------------ corpus */

static int write_corpus(const char *dir)
{
    static const char *const names[] = { "symtab64", "symtab32" };
    unsigned int w;
    int rc = 0;

    for ( w = 0; w < 2; w++ )
    {
        char path[512];
        FILE *f;

        build(&im, w, NULL, true);
        write_sections(&im);
        snprintf(path, sizeof(path), "%s/%s", dir, names[w]);
        f = fopen(path, "wb");
        if ( !f || fwrite(im.b, 1, im.len, f) != im.len || fclose(f) )
        {
            perror(path);
            rc = 1;
        }
    }
    return rc;
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
        return write_corpus(argv[2]);

    RUN(symtab_elf64);
    RUN(symtab_elf32);
    RUN(symtab_legacy);
    RUN(symtab_not_asked);
    RUN(hostile_sections);
    RUN(hostile_sizes);
    RUN(hostile_placement);
    RUN(hostile_huge);
    RUN(exhaustive_links);

    UNIT_EXIT();
}
