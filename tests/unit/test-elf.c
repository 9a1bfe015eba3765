/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the PV kernel image parser (pv/elf*.c): images built in
 * memory, one valid case per source of information and one case per rule
 * that refuses an image.  `test-elf --write-corpus DIR` writes the fuzzer's
 * seed corpus from the same builder.
 */
#include "tests/unit/unit.h"

#include "pv/build/elf.c"
#include "pv/build/elf-notes.c"
#include "pv/build/elf-legacy.c"
#include "pv/build/elf-symtab.c"

/* ------------------------------------------------------------ builder */

#define IMG_MAX     8192

struct notes {
    uint8_t b[1024];
    size_t len;
};

struct seg_spec {
    uint32_t type, flags;
    uint64_t vaddr, paddr, filesz, memsz;
};

struct spec {
    uint16_t e_type;
    uint64_t e_entry;
    unsigned int nr_segs;
    struct seg_spec seg[12];
    struct notes notes;
    bool notes_in_section;      /* SHT_NOTE section instead of PT_NOTE */
    const char *legacy;         /* __xen_guest contents (or NULL) */
};

struct image {
    _Alignas(8) uint8_t b[IMG_MAX];
    size_t len;
    size_t notes_off, seg_off[12], legacy_off, shoff;
    unsigned int note_phdr;     /* index of the PT_NOTE, if any */
};

static void note_raw(struct notes *n, const char *name, uint32_t namesz,
                     uint32_t type, const void *desc, uint32_t descsz)
{
    struct elf64_note h = { namesz, descsz, type };

    memcpy(n->b + n->len, &h, sizeof(h));
    n->len += sizeof(h);
    memcpy(n->b + n->len, name, namesz);
    n->len += ROUNDUP(namesz, 4);
    memcpy(n->b + n->len, desc, descsz);
    n->len += ROUNDUP(descsz, 4);
}

static void note_u64(struct notes *n, uint32_t type, uint64_t v)
{
    note_raw(n, "Xen", 4, type, &v, 8);
}

static void note_str(struct notes *n, uint32_t type, const char *s)
{
    note_raw(n, "Xen", 4, type, s, strlen(s) + 1);
}

static struct elf64_ehdr *ehdr(struct image *im)
{
    return (struct elf64_ehdr *)im->b;
}

static struct elf64_phdr *phdr(struct image *im, unsigned int i)
{
    return (struct elf64_phdr *)(im->b + ehdr(im)->e_phoff) + i;
}

static struct elf64_shdr *shdr(struct image *im, unsigned int i)
{
    return (struct elf64_shdr *)(im->b + im->shoff) + i;
}

static size_t put(struct image *im, const void *p, size_t len, size_t align)
{
    size_t off = ROUNDUP(im->len, align);

    memset(im->b + im->len, 0, off - im->len);
    memcpy(im->b + off, p, len);
    im->len = off + len;
    return off;
}

/*
 * Layout: ELF header, program headers (the spec's, then a PT_NOTE), notes,
 * segment data, and with sections: .shstrtab, __xen_guest, section headers
 * ([1] .shstrtab, [2] __xen_guest, [3] .note).
 */
static void build(struct image *im, const struct spec *s)
{
    static const char strtab[] = "\0.shstrtab\0__xen_guest\0.note";
    struct elf64_ehdr eh = {
        .e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, 1 },
        .e_type = s->e_type ?: ET_EXEC, .e_machine = EM_X86_64,
        .e_version = 1, .e_entry = s->e_entry, .e_phoff = sizeof(eh),
        .e_ehsize = sizeof(eh), .e_phentsize = sizeof(struct elf64_phdr),
    };
    struct elf64_phdr ph[13] = { { 0 } };
    struct elf64_shdr sh[4] = { { 0 } };
    bool pt_note = s->notes.len && !s->notes_in_section;
    bool sections = s->legacy || s->notes_in_section;
    unsigned int i;

    memset(im, 0, sizeof(*im));
    eh.e_phnum = s->nr_segs + pt_note;
    im->len = sizeof(eh) + eh.e_phnum * sizeof(ph[0]);
    im->notes_off = put(im, s->notes.b, s->notes.len, 8);
    for ( i = 0; i < s->nr_segs; i++ )
    {
        uint8_t data[1024];

        memset(data, 0xc0 + i, sizeof(data));
        im->seg_off[i] = put(im, data, s->seg[i].filesz, 16);
        ph[i] = (struct elf64_phdr){
            .p_type = s->seg[i].type, .p_flags = s->seg[i].flags,
            .p_offset = im->seg_off[i], .p_vaddr = s->seg[i].vaddr,
            .p_paddr = s->seg[i].paddr, .p_filesz = s->seg[i].filesz,
            .p_memsz = s->seg[i].memsz, .p_align = 16,
        };
    }
    if ( pt_note )
    {
        im->note_phdr = s->nr_segs;
        ph[s->nr_segs] = (struct elf64_phdr){
            .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = im->notes_off,
            .p_filesz = s->notes.len, .p_memsz = s->notes.len, .p_align = 4,
        };
    }

    if ( sections )
    {
        sh[1] = (struct elf64_shdr){ .sh_name = 1, .sh_type = 3,
            .sh_offset = put(im, strtab, sizeof(strtab), 1),
            .sh_size = sizeof(strtab) };
        if ( s->legacy )
        {
            im->legacy_off = put(im, s->legacy, strlen(s->legacy) + 1, 1);
            sh[2] = (struct elf64_shdr){ .sh_name = 11, .sh_type = 1,
                .sh_offset = im->legacy_off,
                .sh_size = strlen(s->legacy) + 1 };
        }
        if ( s->notes_in_section )
            sh[3] = (struct elf64_shdr){ .sh_name = 23, .sh_type = SHT_NOTE,
                .sh_offset = im->notes_off, .sh_size = s->notes.len };
        im->shoff = put(im, sh, sizeof(sh), 8);
        eh.e_shoff = im->shoff;
        eh.e_shentsize = sizeof(sh[0]);
        eh.e_shnum = 4;
        eh.e_shstrndx = 1;
    }

    memcpy(im->b, &eh, sizeof(eh));
    memcpy(im->b + eh.e_phoff, ph, eh.e_phnum * sizeof(ph[0]));
}

#define VIRT_BASE   0xffffffff80000000ULL
#define KTEXT       0xffffffff81000000ULL

static void add_seg(struct spec *s, uint32_t flags, uint64_t vaddr,
                    uint64_t paddr, uint64_t filesz, uint64_t memsz)
{
    s->seg[s->nr_segs++] = (struct seg_spec){
        PT_LOAD, flags, vaddr, paddr, filesz, memsz };
}

/* Laid out as Linux's vmlinux, with every note a 64-bit kernel may give. */
static void linux_spec(struct spec *s)
{
    static const uint8_t build_id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    uint32_t supported = (1U << XENFEAT_dom0) | (1U << 12);

    memset(s, 0, sizeof(*s));
    s->e_entry = KTEXT + 0x200;
    add_seg(s, PF_R | PF_X, KTEXT, 0x1000000, 0x300, 0x2000);
    add_seg(s, PF_R | PF_W, 0, 0x1002000, 0x40, 0x1000);   /* per-CPU */
    add_seg(s, PF_R | PF_W, KTEXT + 0x3000, 0x1003000, 0x80, 0x4000);

    note_raw(&s->notes, "GNU", 4, 3, build_id, sizeof(build_id));
    note_str(&s->notes, XEN_ELFNOTE_GUEST_OS, "linux");
    note_str(&s->notes, XEN_ELFNOTE_GUEST_VERSION, "2.6");
    note_str(&s->notes, XEN_ELFNOTE_XEN_VERSION, "xen-3.0");
    note_u64(&s->notes, XEN_ELFNOTE_VIRT_BASE, VIRT_BASE);
    note_u64(&s->notes, XEN_ELFNOTE_PADDR_OFFSET, 0);
    note_u64(&s->notes, XEN_ELFNOTE_ENTRY, KTEXT + 0x100);
    note_u64(&s->notes, XEN_ELFNOTE_HYPERCALL_PAGE, KTEXT + 0x1000);
    note_u64(&s->notes, XEN_ELFNOTE_INIT_P2M, 0x8000000000ULL);
    note_str(&s->notes, XEN_ELFNOTE_FEATURES,
             "!writable_page_tables|pae_pgdir_above_4gb");
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_SUPPORTED_FEATURES,
             &supported, 4);
    note_str(&s->notes, XEN_ELFNOTE_PAE_MODE, "yes");
    note_str(&s->notes, XEN_ELFNOTE_LOADER, "generic");
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_SUSPEND_CANCEL,
             &(uint32_t){ 1 }, 4);
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_MOD_START_PFN,
             &(uint32_t){ 1 }, 4);
}

/* The least a kernel needs: no VIRT_BASE, so addresses are pfn << 12. */
static void minimal_spec(struct spec *s)
{
    memset(s, 0, sizeof(*s));
    s->e_entry = 0x1000;
    add_seg(s, PF_R | PF_W | PF_X, 0x1000, 0x1000, 0x100, 0x3000);
    note_str(&s->notes, XEN_ELFNOTE_GUEST_OS, "tiny");
    note_str(&s->notes, XEN_ELFNOTE_XEN_VERSION, "xen-3.0");
    note_str(&s->notes, XEN_ELFNOTE_LOADER, "generic");
}

#define MACH_LEGACY "GUEST_OS=GNU Mach,GUEST_VER=1.8,XEN_VER=xen-3.0," \
    "VIRT_BASE=0xC0000000,ELF_PADDR_OFFSET=0xC0000000,HYPERCALL_PAGE=0x2," \
    "LOADER=generic,PAE=yes[extended-cr3],FEATURES=!writable_page_tables"

/* GNU Mach's layout: the legacy string, p_paddr == p_vaddr. */
static void legacy_spec(struct spec *s, const char *legacy)
{
    memset(s, 0, sizeof(*s));
    s->e_entry = 0xc0000000;
    add_seg(s, PF_R | PF_X, 0xc0000000, 0xc0000000, 0x200, 0x3000);
    add_seg(s, PF_R | PF_W, 0xc0003000, 0xc0003000, 0x40, 0x2000);
    s->legacy = legacy;
}

static int parse(const struct image *im, struct pv_kernel *k,
                 const char **why)
{
    return pv_elf_parse(im->b, im->len, k, why);
}

/* Parse a copy of exactly len bytes, so ASan sees any read past the end. */
static int parse_exact(const void *p, size_t len, struct pv_kernel *k,
                       const char **why)
{
    void *copy = malloc(len ? len : 1);
    int rc;

    memcpy(copy, p, len);
    rc = pv_elf_parse(copy, len, k, why);
    free(copy);
    return rc;
}

/* What a successful parse promises the domain builder. */
static void check_invariants(size_t size, const struct pv_kernel *k)
{
    unsigned int i, j;

    CHECK(k->nr_segments >= 1 && k->nr_segments <= PV_ELF_MAX_SEGMENTS);
    CHECK(k->vstart <= k->entry && k->entry < k->vend);
    CHECK(k->vend - k->vstart <= PV_ELF_MAX_SPAN);
    CHECK(k->vstart >= k->virt_base);
    for ( i = 0; i < k->nr_segments; i++ )
    {
        const struct pv_elf_segment *s = &k->seg[i];

        CHECK(s->offset <= size && s->filesz <= size - s->offset);
        CHECK(s->filesz <= s->memsz);
        CHECK(s->dest >= k->vstart && s->dest + s->memsz <= k->vend);
        CHECK(s->dest + s->memsz >= s->dest);
        for ( j = 0; j < i; j++ )
            CHECK(!s->memsz || !k->seg[j].memsz ||
                  s->dest >= k->seg[j].dest + k->seg[j].memsz ||
                  k->seg[j].dest >= s->dest + s->memsz);
    }
    CHECK(memchr(k->guest_os, 0, sizeof(k->guest_os)));
    CHECK(memchr(k->loader, 0, sizeof(k->loader)));
}

/* Parse im, expect it refused with rc and exactly the message want. */
#define CHECK_REFUSED(im, rc_want, want) do {                              \
    struct pv_kernel k_;                                                   \
    const char *why_ = NULL;                                               \
    CHECK_EQ(parse(im, &k_, &why_), (rc_want));                            \
    CHECK_STR(why_ ? why_ : "(null)", (want));                             \
} while ( 0 )

#define CHECK_PARSES(im, k) do {                                           \
    const char *why_ = NULL;                                               \
    int rc_ = parse(im, k, &why_);                                         \
    CHECK_EQ(rc_, 0);                                                      \
    if ( rc_ )                                                             \
        printf("  why: %s\n", why_);                                       \
    else                                                                   \
        check_invariants((im)->len, k);                                    \
} while ( 0 )

/* ------------------------------------------------------------ valid images */

static void linux_notes(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    linux_spec(&s);
    build(&im, &s);
    CHECK_PARSES(&im, &k);

    CHECK(k.has_xen_notes);
    CHECK(!k.has_legacy_guest_string);
    CHECK_EQ(k.entry, KTEXT + 0x100);       /* the note, not e_entry */
    CHECK_EQ(k.virt_base, VIRT_BASE);
    CHECK_EQ(k.paddr_offset, 0);
    CHECK_EQ(k.hypercall_page, KTEXT + 0x1000);
    CHECK_EQ(k.init_p2m, 0x8000000000ULL);
    CHECK_EQ(k.hv_start_low, PV_ELF_UNSET);
    CHECK(k.mod_start_pfn);
    CHECK(k.suspend_cancel);
    CHECK(!k.bsd_symtab);
    CHECK_STR(k.guest_os, "linux");
    CHECK_STR(k.guest_version, "2.6");
    CHECK_STR(k.xen_version, "xen-3.0");
    CHECK_STR(k.loader, "generic");
    CHECK_EQ(k.pae, PV_PAE_EXTENDED_CR3);
    CHECK_EQ(k.features_required[0], 1U << XENFEAT_writable_page_tables);
    CHECK_EQ(k.features_supported[0],
             (1U << XENFEAT_writable_page_tables) |
             (1U << XENFEAT_pae_pgdir_above_4gb) |
             (1U << XENFEAT_dom0) | (1U << 12));
    CHECK_EQ(k.notes_present,
             (1U << XEN_ELFNOTE_GUEST_OS) | (1U << XEN_ELFNOTE_GUEST_VERSION) |
             (1U << XEN_ELFNOTE_XEN_VERSION) | (1U << XEN_ELFNOTE_VIRT_BASE) |
             (1U << XEN_ELFNOTE_PADDR_OFFSET) | (1U << XEN_ELFNOTE_ENTRY) |
             (1U << XEN_ELFNOTE_HYPERCALL_PAGE) |
             (1U << XEN_ELFNOTE_INIT_P2M) |
             (1U << XEN_ELFNOTE_FEATURES) | (1U << XEN_ELFNOTE_PAE_MODE) |
             (1U << XEN_ELFNOTE_SUPPORTED_FEATURES) |
             (1U << XEN_ELFNOTE_LOADER) | (1U << XEN_ELFNOTE_SUSPEND_CANCEL) |
             (1U << XEN_ELFNOTE_MOD_START_PFN));

    CHECK_EQ(k.nr_segments, 3);
    CHECK_EQ(k.seg[0].vaddr, KTEXT);
    CHECK_EQ(k.seg[0].paddr, 0x1000000);
    CHECK_EQ(k.seg[0].offset, im.seg_off[0]);
    CHECK_EQ(k.seg[0].filesz, 0x300);
    CHECK_EQ(k.seg[0].memsz, 0x2000);
    CHECK_EQ(k.seg[0].flags, PF_R | PF_X);
    CHECK_EQ(k.seg[0].phdr, 0);
    CHECK_EQ(k.seg[0].dest, KTEXT);
    CHECK_EQ(k.seg[2].dest, KTEXT + 0x3000);
    CHECK_EQ(k.vstart, KTEXT);
    CHECK_EQ(k.vend, KTEXT + 0x7000);
}

/* Linux's per-CPU segment: p_vaddr 0, placed by p_paddr. */
static void percpu_placed_by_paddr(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    linux_spec(&s);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.seg[1].vaddr, 0);
    CHECK_EQ(k.seg[1].dest, KTEXT + 0x2000);
    CHECK_EQ(k.seg[1].flags, PF_R | PF_W);
}

/* PADDR_OFFSET moves every segment: dest = paddr - offset + virt_base. */
static void paddr_offset_applied(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    memset(&s, 0, sizeof(s));
    s.e_entry = 0xffff900000001000ULL;
    add_seg(&s, PF_R | PF_X, 0xffff900000001000ULL, 0x40001000, 0x20, 0x1000);
    note_str(&s.notes, XEN_ELFNOTE_GUEST_OS, "linux");
    note_str(&s.notes, XEN_ELFNOTE_XEN_VERSION, "xen-3.0");
    note_u64(&s.notes, XEN_ELFNOTE_VIRT_BASE, 0xffff900000000000ULL);
    note_u64(&s.notes, XEN_ELFNOTE_PADDR_OFFSET, 0x40000000);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.paddr_offset, 0x40000000);
    CHECK_EQ(k.seg[0].dest, 0xffff900000001000ULL);
    CHECK_EQ(k.entry, 0xffff900000001000ULL);   /* e_entry: no ENTRY note */
}

/* No VIRT_BASE: 0, PADDR_OFFSET 0, low pages included. */
static void minimal_defaults(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    minimal_spec(&s);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.virt_base, 0);
    CHECK_EQ(k.paddr_offset, 0);
    CHECK_EQ(k.vstart, 0x1000);
    CHECK_EQ(k.vend, 0x4000);
    CHECK_EQ(k.entry, 0x1000);
    CHECK_EQ(k.hypercall_page, PV_ELF_UNSET);
    CHECK_EQ(k.init_p2m, PV_ELF_UNSET);
    CHECK_EQ(k.pae, PV_PAE_NO);
    CHECK(!k.mod_start_pfn);
    CHECK_STR(k.guest_version, "");

    /* ET_DYN is taken at face value; a PT_LOAD with no R/W/X isn't loaded. */
    s.e_type = ET_DYN;
    add_seg(&s, 0, 0x1000, 0x1000, 0x10, 0x10);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.nr_segments, 1);
}

static void legacy_guest_string(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    legacy_spec(&s, MACH_LEGACY);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK(!k.has_xen_notes);
    CHECK(k.has_legacy_guest_string);
    CHECK_STR(k.guest_os, "GNU Mach");
    CHECK_STR(k.guest_version, "1.8");
    CHECK_STR(k.xen_version, "xen-3.0");
    CHECK_STR(k.loader, "generic");
    CHECK_EQ(k.virt_base, 0xc0000000);
    CHECK_EQ(k.paddr_offset, 0xc0000000);
    CHECK_EQ(k.hypercall_page, 0xc0002000);   /* page 2 above VIRT_BASE */
    CHECK_EQ(k.pae, PV_PAE_EXTENDED_CR3);
    CHECK(pv_elf_feature_required(&k, XENFEAT_writable_page_tables));
    CHECK_EQ(k.seg[0].dest, 0xc0000000);
    CHECK_EQ(k.seg[1].dest, 0xc0003000);
    CHECK_EQ(k.vstart, 0xc0000000);
    CHECK_EQ(k.vend, 0xc0005000);
    CHECK_EQ(k.entry, 0xc0000000);
    CHECK_EQ(k.notes_present, 0);
}

/* ELF_PADDR_OFFSET defaults to VIRT_BASE with the legacy string. */
static void legacy_variants(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    legacy_spec(&s, "XEN_VER=xen-3.0.4,LOADER=generic,VIRT_BASE=0xC0000000,"
                "PAE=yes,BSD_SYMTAB,HYPERCALL_PAGE=0x1,,FOO=bar,"
                "VIRT_ENTRY=0xc0000010,FEATURES=nonsense|!dom0");
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.paddr_offset, 0xc0000000);
    CHECK_EQ(k.pae, PV_PAE_YES);
    CHECK(k.bsd_symtab);
    CHECK_EQ(k.hypercall_page, 0xc0001000);
    CHECK_EQ(k.entry, 0xc0000010);
    CHECK(pv_elf_feature_required(&k, XENFEAT_dom0));

    /* Octal and decimal numbers, as strtoull(, 0). */
    legacy_spec(&s, "GUEST_OS=linux,XEN_VER=xen-3.0,VIRT_BASE=030000000000,"
                "ELF_PADDR_OFFSET=0,HYPERCALL_PAGE=2");
    s.seg[0].paddr = 0;
    s.seg[1].paddr = 0x3000;
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.virt_base, 0xc0000000);
    CHECK_EQ(k.paddr_offset, 0);
    CHECK_EQ(k.hypercall_page, 0xc0002000);
    CHECK_EQ(k.seg[1].dest, 0xc0003000);
}

static void legacy_refused(void)
{
    static struct image im;
    struct spec s;

    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,VIRT_BASE=0xC00000zz");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "__xen_guest: bad number for VIRT_BASE");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,VIRT_BASE=");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "__xen_guest: bad number for VIRT_BASE");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,ELF_PADDR_OFFSET=0x"
                "10000000000000000");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL,
                  "__xen_guest: bad number for ELF_PADDR_OFFSET");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,VIRT_BASE=0xC0000000,"
                "HYPERCALL_PAGE=0x10000000000000");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "__xen_guest: HYPERCALL_PAGE overflow");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,"
                "VIRT_BASE=0xffffffff80000000,HYPERCALL_PAGE=0x80000");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "__xen_guest: HYPERCALL_PAGE overflow");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,VIRT_BASE=0xC0000000,"
                "HYPERCALL_PAGE=0x100");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "HYPERCALL_PAGE outside the image");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,FEATURES=!bogus");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EOPNOTSUPP, "unknown required feature 'bogus'");
    legacy_spec(&s, "GUEST_OS=GNU Mach,XEN_VER=xen-3.0");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "neither LOADER \"generic\" nor GUEST_OS \"linux\"");
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-2.0");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "XEN_VERSION is not \"xen-3.0\"");

    /* The section's bytes, not a NUL, bound the string. */
    legacy_spec(&s, MACH_LEGACY);
    build(&im, &s);
    shdr(&im, 2)->sh_size = 20;     /* "GUEST_OS=GNU Mach,GU" */
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "neither LOADER \"generic\" nor GUEST_OS \"linux\"");
    shdr(&im, 2)->sh_size = im.len;
    CHECK_REFUSED(&im, -XEN_EINVAL, "__xen_guest section outside the file");
    shdr(&im, 1)->sh_offset = im.len - 4;
    CHECK_REFUSED(&im, -XEN_EINVAL, "section name table outside the file");
}

/* Notes win over the legacy string; SHT_NOTE sections stand in for PT_NOTE. */
static void notes_sources(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    linux_spec(&s);
    s.legacy = "GUEST_OS=other,XEN_VER=xen-3.0,LOADER=generic,FEATURES=!bad";
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK(k.has_xen_notes);
    CHECK(!k.has_legacy_guest_string);
    CHECK_STR(k.guest_os, "linux");

    linux_spec(&s);
    s.notes_in_section = true;
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK(k.has_xen_notes);
    CHECK_EQ(k.entry, KTEXT + 0x100);
    CHECK_EQ(k.virt_base, VIRT_BASE);

    /* A PT_NOTE at offset 0 (an old binutils bug) is skipped. */
    minimal_spec(&s);
    build(&im, &s);
    phdr(&im, im.note_phdr)->p_offset = 0;
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "not a Xen PV kernel: no Xen notes or __xen_guest section");
}

static void pae_modes(void)
{
    static const struct { const char *s; enum pv_pae_mode pae; } t[] = {
        { "yes", PV_PAE_EXTENDED_CR3 }, { "bimodal", PV_PAE_BIMODAL },
        { "yes,bimodal", PV_PAE_BIMODAL }, { "no", PV_PAE_NO },
        { "yess", PV_PAE_NO }, { "", PV_PAE_NO },
    };
    static struct image im;
    struct spec s;
    struct pv_kernel k;
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(t); i++ )
    {
        minimal_spec(&s);
        note_str(&s.notes, XEN_ELFNOTE_PAE_MODE, t[i].s);
        build(&im, &s);
        CHECK_PARSES(&im, &k);
        CHECK_EQ(k.pae, t[i].pae);
    }
}

static void features(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;
    uint32_t words[2] = { 1U << 9, 0xffffffff };

    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_FEATURES,
             "writable_descriptor_tables||!auto_translated_physmap|"
             "unknown_optional|hvm_callback_vector|");
    note_str(&s.notes, XEN_ELFNOTE_FEATURES, "!supervisor_mode_kernel");
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_SUPPORTED_FEATURES, words, 8);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK(pv_elf_feature_supported(&k, XENFEAT_writable_descriptor_tables));
    CHECK(!pv_elf_feature_required(&k, XENFEAT_writable_descriptor_tables));
    CHECK(pv_elf_feature_supported(&k, XENFEAT_auto_translated_physmap));
    CHECK(pv_elf_feature_required(&k, XENFEAT_auto_translated_physmap));
    CHECK(pv_elf_feature_required(&k, XENFEAT_supervisor_mode_kernel));
    CHECK(pv_elf_feature_supported(&k, XENFEAT_hvm_callback_vector));
    CHECK(pv_elf_feature_supported(&k, 9));     /* from the bitmap */
    CHECK(!pv_elf_feature_supported(&k, XENFEAT_dom0));
    CHECK(!pv_elf_feature_supported(&k, 32));   /* beyond NR_SUBMAPS */
    CHECK(!pv_elf_feature_required(&k, 1000));
    CHECK_EQ(k.features_supported[0],
             (1U << XENFEAT_writable_descriptor_tables) |
             (1U << XENFEAT_auto_translated_physmap) |
             (1U << XENFEAT_supervisor_mode_kernel) |
             (1U << XENFEAT_hvm_callback_vector) | (1U << 9));

    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_FEATURES,
             "dom0|!foo|!writable_page_tables");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EOPNOTSUPP, "unknown required feature 'foo'");

    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_FEATURES, "dom0|!");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EOPNOTSUPP, "unknown required feature ''");

    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_FEATURES,
             "!pae_pgdir_above_4gb_and_a_very_long_name_that_goes_on_and_on");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EOPNOTSUPP, "unknown required feature "
                  "'pae_pgdir_above_4gb_and_a_very_long_name'");

    /* A name is matched whole, not as a prefix; unprintables are masked. */
    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_FEATURES, "!dom\n");
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EOPNOTSUPP, "unknown required feature 'dom?'");
}

/* Notes of other owners, and Xen notes of unknown types, are skipped. */
static void foreign_notes(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    minimal_spec(&s);
    note_raw(&s.notes, "Xen", 3, XEN_ELFNOTE_VIRT_BASE, "\0\0\0\1", 4);
    note_raw(&s.notes, "XenX", 5, XEN_ELFNOTE_VIRT_BASE, "\0\0\0\1", 4);
    note_raw(&s.notes, "Xen", 4, 99, "zzz", 3);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_L1_MFN_VALID, "zzz", 3);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_INFO, "", 0);
    note_raw(&s.notes, "", 0, 0, "", 0);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_PHYS32_ENTRY, "\0\0\x10\0", 4);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_HV_START_LOW, "\0\0\0\xf5", 4);
    note_str(&s.notes, XEN_ELFNOTE_BSD_SYMTAB, "yes");
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.virt_base, 0);
    CHECK_EQ(k.hv_start_low, 0xf5000000);
    CHECK(k.bsd_symtab);
    CHECK_EQ(k.notes_present,
             (1U << XEN_ELFNOTE_GUEST_OS) | (1U << XEN_ELFNOTE_XEN_VERSION) |
             (1U << XEN_ELFNOTE_LOADER) | (1U << XEN_ELFNOTE_PHYS32_ENTRY) |
             (1U << XEN_ELFNOTE_HV_START_LOW) |
             (1U << XEN_ELFNOTE_BSD_SYMTAB));

    /* Zero padding may end a note area; anything else there is refused. */
    minimal_spec(&s);
    s.notes.len += 8;
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    s.notes.b[s.notes.len - 1] = 1;
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "truncated note");

    /* Long strings are truncated into k, whole for the checks. */
    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_GUEST_VERSION,
             "0123456789abcdef0123456789abcdefXYZ");
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK_STR(k.guest_version, "0123456789abcdef0123456789abcde");
}

/* ------------------------------------------------------------ refusals */

static void truncated_everywhere(void)
{
    static struct image im[3];
    struct spec s;
    struct pv_kernel k;
    unsigned int i;
    size_t len;

    linux_spec(&s);
    build(&im[0], &s);
    legacy_spec(&s, MACH_LEGACY);
    build(&im[1], &s);
    linux_spec(&s);
    s.notes_in_section = true;
    build(&im[2], &s);

    for ( i = 0; i < ARRAY_SIZE(im); i++ )
    {
        const char *why = NULL;

        CHECK_EQ(parse_exact(im[i].b, im[i].len, &k, &why), 0);
        for ( len = 0; len < im[i].len; len++ )
        {
            why = NULL;
            CHECK(parse_exact(im[i].b, len, &k, &why) < 0);
            CHECK(why && why[0]);
        }
    }
}

/* Every byte flipped, three ways: refused, or parsed within the rules. */
static void flipped_everywhere(void)
{
    static const uint8_t masks[] = { 0x01, 0x80, 0xff };
    static struct image im[2];
    struct spec s;
    struct pv_kernel k;
    unsigned int i, m, ok = 0, refused = 0;
    size_t off;

    linux_spec(&s);
    build(&im[0], &s);
    legacy_spec(&s, MACH_LEGACY);
    build(&im[1], &s);

    for ( i = 0; i < ARRAY_SIZE(im); i++ )
        for ( off = 0; off < im[i].len; off++ )
            for ( m = 0; m < ARRAY_SIZE(masks); m++ )
            {
                const char *why = NULL;

                im[i].b[off] ^= masks[m];
                if ( parse_exact(im[i].b, im[i].len, &k, &why) )
                {
                    CHECK(why && why[0]);
                    refused++;
                }
                else
                {
                    check_invariants(im[i].len, &k);
                    ok++;
                }
                im[i].b[off] ^= masks[m];
            }
    CHECK(ok && refused);
}

static void bad_ident(void)
{
    static struct image im;
    struct spec s;

    minimal_spec(&s);
    build(&im, &s);
    CHECK_REFUSED(&(struct image){ .len = 0 }, -XEN_EINVAL,
                  "truncated ELF header");
    im.b[1] = 'e';
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not an ELF image");
    im.b[1] = 'E';
    im.b[EI_CLASS] = 1;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not ELF64 x86-64 or ELF32 i386");
    im.b[EI_CLASS] = ELFCLASS64;
    im.b[EI_DATA] = 2;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not ELF64 x86-64 or ELF32 i386");
    im.b[EI_DATA] = ELFDATA2LSB;
    ehdr(&im)->e_machine = 3;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not ELF64 x86-64 or ELF32 i386");
    ehdr(&im)->e_machine = EM_X86_64;
    ehdr(&im)->e_type = 1;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not an executable");
    ehdr(&im)->e_type = 4;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not an executable");
}

/*
 * The same image as ELF32 i386: the headers narrowed in place, every
 * offset kept (the 32-bit headers are smaller, so they still fit).
 */
static void to_elf32(struct image *im)
{
    struct elf64_ehdr eh = *ehdr(im);
    struct elf32_ehdr e32 = {
        .e_type = eh.e_type, .e_machine = EM_386, .e_version = 1,
        .e_entry = eh.e_entry, .e_phoff = sizeof(e32),
        .e_shoff = eh.e_shoff, .e_ehsize = sizeof(e32),
        .e_phentsize = sizeof(struct elf32_phdr), .e_phnum = eh.e_phnum,
        .e_shentsize = eh.e_shnum ? sizeof(struct elf32_shdr) : 0,
        .e_shnum = eh.e_shnum, .e_shstrndx = eh.e_shstrndx,
    };
    struct elf64_phdr ph[13];
    struct elf64_shdr sh[4];
    unsigned int i;

    memcpy(e32.e_ident, eh.e_ident, EI_NIDENT);
    e32.e_ident[EI_CLASS] = ELFCLASS32;
    memcpy(ph, phdr(im, 0), eh.e_phnum * sizeof(ph[0]));
    if ( eh.e_shnum )
        memcpy(sh, shdr(im, 0), eh.e_shnum * sizeof(sh[0]));
    memset(im->b, 0, eh.e_phoff + eh.e_phnum * sizeof(ph[0]));
    memcpy(im->b, &e32, sizeof(e32));
    for ( i = 0; i < eh.e_phnum; i++ )
    {
        struct elf32_phdr p = {
            .p_type = ph[i].p_type, .p_offset = ph[i].p_offset,
            .p_vaddr = ph[i].p_vaddr, .p_paddr = ph[i].p_paddr,
            .p_filesz = ph[i].p_filesz, .p_memsz = ph[i].p_memsz,
            .p_flags = ph[i].p_flags, .p_align = ph[i].p_align,
        };

        memcpy(im->b + sizeof(e32) + i * sizeof(p), &p, sizeof(p));
    }
    for ( i = 0; i < eh.e_shnum; i++ )
    {
        struct elf32_shdr h = {
            .sh_name = sh[i].sh_name, .sh_type = sh[i].sh_type,
            .sh_offset = sh[i].sh_offset, .sh_size = sh[i].sh_size,
        };

        memcpy(im->b + im->shoff + i * sizeof(h), &h, sizeof(h));
    }
}

static struct elf32_phdr *phdr32(struct image *im, unsigned int i)
{
    return (struct elf32_phdr *)(im->b + sizeof(struct elf32_ehdr)) + i;
}

/* A 32-bit PAE kernel as Linux's i386 vmlinux gives its notes. */
static void linux32_spec(struct spec *s, const char *pae)
{
    memset(s, 0, sizeof(*s));
    s->e_entry = 0xc1000000;
    add_seg(s, PF_R | PF_X, 0xc1000000, 0x1000000, 0x300, 0x2000);
    add_seg(s, PF_R | PF_W, 0xc1002000, 0x1002000, 0x80, 0x4000);
    note_str(&s->notes, XEN_ELFNOTE_GUEST_OS, "linux");
    note_str(&s->notes, XEN_ELFNOTE_GUEST_VERSION, "2.6");
    note_str(&s->notes, XEN_ELFNOTE_XEN_VERSION, "xen-3.0");
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_VIRT_BASE,
             &(uint32_t){ 0xc0000000 }, 4);
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_PADDR_OFFSET,
             &(uint32_t){ 0 }, 4);
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_ENTRY,
             &(uint32_t){ 0xc1000100 }, 4);
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_HYPERCALL_PAGE,
             &(uint32_t){ 0xc1001000 }, 4);
    note_raw(&s->notes, "Xen", 4, XEN_ELFNOTE_HV_START_LOW,
             &(uint32_t){ 0xf5800000 }, 4);
    if ( pae )
        note_str(&s->notes, XEN_ELFNOTE_PAE_MODE, pae);
    note_str(&s->notes, XEN_ELFNOTE_LOADER, "generic");
}

/* ELF32 i386 with PAE: a compat guest, by notes or the legacy string. */
static void elf32_compat(void)
{
    static struct image im;
    struct pv_kernel k;
    struct spec s;

    linux32_spec(&s, "yes");
    build(&im, &s);
    to_elf32(&im);
    CHECK_PARSES(&im, &k);
    CHECK(k.compat);
    CHECK_EQ(k.pae, PV_PAE_EXTENDED_CR3);
    CHECK_EQ(k.virt_base, 0xc0000000);
    CHECK_EQ(k.entry, 0xc1000100);
    CHECK_EQ(k.hypercall_page, 0xc1001000);
    CHECK_EQ(k.hv_start_low, 0xf5800000);
    CHECK_EQ(k.seg[0].dest, 0xc1000000);
    CHECK_EQ(k.seg[1].dest, 0xc1002000);
    CHECK_EQ(k.vend, 0xc1006000);

    /* GNU Mach's i386 Xen kernel: the __xen_guest string, sections. */
    legacy_spec(&s, MACH_LEGACY);
    build(&im, &s);
    to_elf32(&im);
    CHECK_PARSES(&im, &k);
    CHECK(k.compat);
    CHECK(k.has_legacy_guest_string);
    CHECK_STR(k.guest_os, "GNU Mach");
    CHECK_EQ(k.pae, PV_PAE_EXTENDED_CR3);
    CHECK_EQ(k.hypercall_page, 0xc0002000);
    CHECK_EQ(k.seg[1].dest, 0xc0003000);

    /* The 64-bit image is not compat. */
    linux_spec(&s);
    build(&im, &s);
    CHECK_PARSES(&im, &k);
    CHECK(!k.compat);
}

static void elf32_refused(void)
{
    static struct image im;
    struct spec s;

    /* Without PAE: Xen has no "xen-3.0-x86_32" for it. */
    linux32_spec(&s, NULL);
    build(&im, &s);
    to_elf32(&im);
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "32-bit kernel without PAE");
    legacy_spec(&s, "GUEST_OS=GNU Mach,XEN_VER=xen-3.0,VIRT_BASE=0xC0000000,"
                "LOADER=generic,PAE=no");
    build(&im, &s);
    to_elf32(&im);
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "32-bit kernel without PAE");

    /* The hypervisor's area starts at 0xF5800000 at the latest. */
    linux32_spec(&s, "yes");
    build(&im, &s);
    to_elf32(&im);
    phdr32(&im, 1)->p_paddr = 0x35800000 - 0x80;    /* dest 0xf57fff80 */
    CHECK_REFUSED(&im, -XEN_EINVAL,
                  "segment 1 outside the guest's address range");
    linux32_spec(&s, "yes");
    s.notes.len = 0;
    note_str(&s.notes, XEN_ELFNOTE_XEN_VERSION, "xen-3.0");
    note_str(&s.notes, XEN_ELFNOTE_LOADER, "generic");
    note_str(&s.notes, XEN_ELFNOTE_PAE_MODE, "yes");
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_VIRT_BASE,
             &(uint32_t){ 0xc0000000 }, 4);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_HV_START_LOW,
             &(uint32_t){ 0xf5a00000 }, 4);
    s.e_entry = 0xc1000000;
    build(&im, &s);
    to_elf32(&im);
    CHECK_REFUSED(&im, -XEN_EINVAL, "HV_START_LOW above the hypervisor's area");

    /* Class and machine must agree; header sizes are the class's. */
    linux32_spec(&s, "yes");
    build(&im, &s);
    to_elf32(&im);
    ((struct elf32_ehdr *)im.b)->e_machine = EM_X86_64;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not ELF64 x86-64 or ELF32 i386");
    ((struct elf32_ehdr *)im.b)->e_machine = EM_386;
    ((struct elf32_ehdr *)im.b)->e_phentsize = sizeof(struct elf64_phdr);
    CHECK_REFUSED(&im, -XEN_EINVAL, "bad program header size");
    ((struct elf32_ehdr *)im.b)->e_phentsize = sizeof(struct elf32_phdr);
    CHECK_EQ(parse_exact(im.b, sizeof(struct elf32_ehdr) - 1,
                         &(struct pv_kernel){ 0 }, NULL), -XEN_EINVAL);
    linux_spec(&s);
    build(&im, &s);
    ehdr(&im)->e_machine = EM_386;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "not ELF64 x86-64 or ELF32 i386");
}

static void bad_tables(void)
{
    static struct image im;
    struct spec s;

    minimal_spec(&s);
    build(&im, &s);
    ehdr(&im)->e_phnum = 0;
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "no program headers");
    ehdr(&im)->e_phnum = PN_XNUM;
    CHECK_REFUSED(&im, -XEN_EINVAL, "too many program headers");
    ehdr(&im)->e_phnum = 2;
    ehdr(&im)->e_phentsize = 32;
    CHECK_REFUSED(&im, -XEN_EINVAL, "bad program header size");
    ehdr(&im)->e_phentsize = 64;
    CHECK_REFUSED(&im, -XEN_EINVAL, "bad program header size");
    ehdr(&im)->e_phentsize = sizeof(struct elf64_phdr);
    ehdr(&im)->e_phoff = im.len - 100;
    CHECK_REFUSED(&im, -XEN_EINVAL, "program header table outside the file");
    ehdr(&im)->e_phoff = ~0ULL - 8;
    CHECK_REFUSED(&im, -XEN_EINVAL, "program header table outside the file");
    ehdr(&im)->e_phoff = sizeof(struct elf64_ehdr);
    ehdr(&im)->e_phnum = 1000;
    CHECK_REFUSED(&im, -XEN_EINVAL, "program header table outside the file");

    legacy_spec(&s, MACH_LEGACY);
    build(&im, &s);
    ehdr(&im)->e_shentsize = 40;
    CHECK_REFUSED(&im, -XEN_EINVAL, "bad section header size");
    ehdr(&im)->e_shentsize = sizeof(struct elf64_shdr);
    ehdr(&im)->e_shnum = 5;
    CHECK_REFUSED(&im, -XEN_EINVAL, "section header table outside the file");
    ehdr(&im)->e_shoff = ~0ULL;
    CHECK_REFUSED(&im, -XEN_EINVAL, "section header table outside the file");

    /* No section table (or a section name table index beyond it). */
    ehdr(&im)->e_shoff = 0;
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "not a Xen PV kernel: no Xen notes or __xen_guest section");
    ehdr(&im)->e_shoff = im.shoff;
    ehdr(&im)->e_shnum = 4;
    ehdr(&im)->e_shstrndx = 4;
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "not a Xen PV kernel: no Xen notes or __xen_guest section");
    ehdr(&im)->e_shstrndx = 1;
    shdr(&im, 1)->sh_type = SHT_NOBITS;
    CHECK_REFUSED(&im, -XEN_EINVAL, "section name table outside the file");
    shdr(&im, 1)->sh_type = 3;
    shdr(&im, 2)->sh_name = 0x7fffffff;
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "not a Xen PV kernel: no Xen notes or __xen_guest section");
}

static void bad_segments(void)
{
    static struct image im;
    struct spec s;
    unsigned int i;

    linux_spec(&s);
    build(&im, &s);
    phdr(&im, 1)->p_filesz = 0x2000;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 1: memsz < filesz");
    phdr(&im, 1)->p_filesz = 0x1000;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 1 file data outside the file");
    phdr(&im, 1)->p_filesz = 0x40;
    phdr(&im, 1)->p_offset = ~0ULL - 0x20;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 1 file data outside the file");
    phdr(&im, 1)->p_offset = im.seg_off[1];
    phdr(&im, 2)->p_paddr = ~0ULL - 0x1000;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 2: address overflow");
    phdr(&im, 2)->p_paddr = 0x1003000;
    phdr(&im, 2)->p_vaddr = ~0ULL - 0x1000;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 2: address overflow");
    phdr(&im, 2)->p_vaddr = KTEXT + 0x3000;
    phdr(&im, 2)->p_paddr = 0x1001fff;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 2 overlaps segment 0");
    phdr(&im, 2)->p_paddr = 0x1002fff;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 2 overlaps segment 1");
    phdr(&im, 2)->p_paddr = 0x1003000;
    phdr(&im, 0)->p_paddr = 0x1002800;
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 1 overlaps segment 0");

    /* Touching is fine; so is an empty segment inside another. */
    phdr(&im, 0)->p_paddr = 0x1000000;
    phdr(&im, 1)->p_memsz = 0;
    phdr(&im, 1)->p_filesz = 0;
    phdr(&im, 1)->p_paddr = 0x1000100;
    {
        struct pv_kernel k;

        CHECK_PARSES(&im, &k);
    }

    /* A PT_LOAD is only loaded with R, W or X; too many are refused. */
    minimal_spec(&s);
    for ( i = 0; i < PV_ELF_MAX_SEGMENTS; i++ )
        add_seg(&s, PF_R, 0x10000 + i * 0x1000, 0x10000 + i * 0x1000, 0, 1);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_E2BIG, "more than 8 loadable segments");
    phdr(&im, 3)->p_flags = 0;
    {
        struct pv_kernel k;

        CHECK_PARSES(&im, &k);
        CHECK_EQ(k.nr_segments, PV_ELF_MAX_SEGMENTS);
        CHECK_EQ(k.seg[3].phdr, 4);
    }
    minimal_spec(&s);
    s.seg[0].type = 6;                  /* PT_PHDR */
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_ENOEXEC, "no loadable segment");
}

static void bad_placement(void)
{
    static struct image im;
    struct spec s;

    /* Where the destination lands. */
    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_PADDR_OFFSET, 0x1001000);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 0: paddr below PADDR_OFFSET");

    linux_spec(&s);
    s.seg[2].paddr = 0x7fffe000;    /* VIRT_BASE + 2 GiB - 8 KiB */
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "segment 2: address overflow");

    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_VIRT_BASE, 0xffff800000000000ULL);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL,
                  "segment 0 outside the guest's address range");

    minimal_spec(&s);
    s.seg[0].paddr = 0x7ffffffff000ULL;
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL,
                  "segment 0 outside the guest's address range");

    minimal_spec(&s);
    add_seg(&s, PF_R, 0, 0x40001000, 0, 0x1000);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_E2BIG, "image spans more than 1 GiB");
    minimal_spec(&s);
    add_seg(&s, PF_R, 0, 0x40000000, 0, 0x1000);  /* exactly 1 GiB */
    build(&im, &s);
    {
        struct pv_kernel k;

        CHECK_PARSES(&im, &k);
    }

    minimal_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_PADDR_OFFSET, 0);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "PADDR_OFFSET set, VIRT_BASE unset");

    minimal_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_VIRT_BASE, 0x800);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "VIRT_BASE not page-aligned");
}

static void bad_addresses(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    minimal_spec(&s);
    s.e_entry = 0x4000;
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "entry point outside the image");
    ehdr(&im)->e_entry = 0xfff;
    CHECK_REFUSED(&im, -XEN_EINVAL, "entry point outside the image");
    ehdr(&im)->e_entry = 0x3fff;
    CHECK_PARSES(&im, &k);

    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_ENTRY, KTEXT + 0x7000);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "entry point outside the image");

    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_HYPERCALL_PAGE, KTEXT + 0x1800);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "HYPERCALL_PAGE not page-aligned");
    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_HYPERCALL_PAGE, KTEXT + 0x7000);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "HYPERCALL_PAGE outside the image");
    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_HYPERCALL_PAGE, VIRT_BASE);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "HYPERCALL_PAGE outside the image");

    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_INIT_P2M, KTEXT + 0x6000);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "INIT_P2M inside the image");
}

static void bad_notes(void)
{
    static struct image im;
    struct spec s;
    struct pv_kernel k;

    minimal_spec(&s);
    build(&im, &s);
    phdr(&im, im.note_phdr)->p_filesz = im.len;
    CHECK_REFUSED(&im, -XEN_EINVAL, "note segment 1 outside the file");
    phdr(&im, im.note_phdr)->p_filesz = 0x40;
    phdr(&im, im.note_phdr)->p_offset = ~0ULL - 0x10;
    CHECK_REFUSED(&im, -XEN_EINVAL, "note segment 1 outside the file");

    /*
     * A note that runs off the end of the file (Xen's libelf bounds notes
     * by the file, not their segment): name, descriptor, 32-bit wrap.
     */
    minimal_spec(&s);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_ENTRY, "\0\x10\0\0\0\0\0\0", 8);
    build(&im, &s);
    memcpy(im.b + im.notes_off + s.notes.len - 24,
           &(uint32_t){ im.len - im.notes_off - s.notes.len + 21 }, 4);
    CHECK_REFUSED(&im, -XEN_EINVAL, "bogus note size");
    /* A descriptor is what the file has of it: a number cut short. */
    memcpy(im.b + im.notes_off + s.notes.len - 24, &(uint32_t){ 4 }, 4);
    memcpy(im.b + im.notes_off + s.notes.len - 20,
           &(uint32_t){ im.len - im.notes_off - s.notes.len + 9 }, 4);
    CHECK_REFUSED(&im, -XEN_EINVAL, "note ENTRY: bad size");
    memcpy(im.b + im.notes_off + s.notes.len - 24, &(uint32_t){ ~0U }, 4);
    memcpy(im.b + im.notes_off + s.notes.len - 20, &(uint32_t){ ~0U }, 4);
    CHECK_REFUSED(&im, -XEN_EINVAL, "bogus note size");
    memcpy(im.b + im.notes_off + s.notes.len - 24, &(uint32_t){ 0xfffffffd },
           4);
    memcpy(im.b + im.notes_off + s.notes.len - 20, &(uint32_t){ 8 }, 4);
    CHECK_REFUSED(&im, -XEN_EINVAL, "bogus note size");
    memcpy(im.b + im.notes_off + s.notes.len - 24, &(uint32_t){ 4 }, 4);
    CHECK_PARSES(&im, &k);
    CHECK_EQ(k.entry, 0x1000);

    /*
     * The note segment ends in a header, or in a descriptor: that note is
     * read from the file and is the last, as Xen's libelf reads Debian's
     * grub-i386-xen.bin (its PT_NOTE ends 8 bytes into PAE_MODE's "yes").
     */
    minimal_spec(&s);
    build(&im, &s);
    phdr(&im, im.note_phdr)->p_filesz = s.notes.len - 20;
    CHECK_REFUSED(&im, -XEN_EINVAL, "truncated note");
    phdr(&im, im.note_phdr)->p_filesz = s.notes.len - 4;
    {
        static struct pv_kernel k2;

        CHECK_PARSES(&im, &k2);
    }

    /* Value sizes. */
    minimal_spec(&s);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_VIRT_BASE, "\0\0\0", 3);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "note VIRT_BASE: bad size");
    minimal_spec(&s);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_ENTRY, "", 0);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "note ENTRY: bad size");
    minimal_spec(&s);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_SUPPORTED_FEATURES, "\1\0\0\0\0",
             5);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_EINVAL, "note SUPPORTED_FEATURES: bad size");
    minimal_spec(&s);
    /* A string filling its descriptor, with no NUL: Linux's FEATURES. */
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_GUEST_OS, "linux", 5);
    build(&im, &s);
    {
        static struct pv_kernel k;

        CHECK_PARSES(&im, &k);
        CHECK_STR(k.guest_os, "linux");
    }
    minimal_spec(&s);
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_LOADER, "", 0);
    build(&im, &s);
    CHECK_REFUSED(&im, -XEN_ENOEXEC,
                  "neither LOADER \"generic\" nor GUEST_OS \"linux\"");
}

static void bad_note_sections(void)
{
    static struct image im;
    struct spec s;

    linux_spec(&s);
    s.notes_in_section = true;
    build(&im, &s);
    shdr(&im, 3)->sh_size = im.len;
    CHECK_REFUSED(&im, -XEN_EINVAL, "note section 3 outside the file");
    shdr(&im, 3)->sh_size = 0x10;
    memcpy(im.b + im.notes_off, &(uint32_t){ im.len }, 4);      /* namesz */
    CHECK_REFUSED(&im, -XEN_EINVAL, "bogus note size");
}

/* Xen's ELF_MAX_TOTAL_NOTE_COUNT, and the smallest notes that reach it. */
static void too_many_notes(void)
{
    size_t len = sizeof(struct elf64_ehdr) + 2 * sizeof(struct elf64_phdr) +
                 (PV_ELF_MAX_NOTES + 1) * sizeof(struct elf64_note);
    uint8_t *b = calloc(1, len);
    struct elf64_ehdr *eh = (void *)b;
    struct elf64_phdr *ph = (void *)(eh + 1);
    struct pv_kernel k;
    const char *why = NULL;

    memcpy(eh->e_ident, "\177ELF\2\1\1", 7);
    eh->e_type = ET_EXEC;
    eh->e_machine = EM_X86_64;
    eh->e_phoff = sizeof(*eh);
    eh->e_phentsize = sizeof(*ph);
    eh->e_phnum = 2;
    ph[0] = (struct elf64_phdr){ .p_type = PT_LOAD, .p_flags = PF_R,
        .p_paddr = 0x1000, .p_memsz = 0x1000 };
    ph[1] = (struct elf64_phdr){ .p_type = PT_NOTE,
        .p_offset = sizeof(*eh) + 2 * sizeof(*ph),
        .p_filesz = (PV_ELF_MAX_NOTES + 1) * sizeof(struct elf64_note) };
    CHECK_EQ(pv_elf_parse(b, len, &k, &why), -XEN_E2BIG);
    CHECK_STR(why, "too many ELF notes");
    ph[1].p_filesz -= sizeof(struct elf64_note);
    CHECK_EQ(pv_elf_parse(b, len, &k, &why), -XEN_ENOEXEC);
    free(b);
}

/* The image may sit at any alignment; why may be NULL. */
static void unaligned_input(void)
{
    static struct image im;
    static uint8_t shifted[IMG_MAX + 8];
    struct spec s;
    struct pv_kernel k;

    linux_spec(&s);
    build(&im, &s);
    memcpy(shifted + 3, im.b, im.len);
    CHECK_EQ(pv_elf_parse(shifted + 3, im.len, &k, NULL), 0);
    CHECK_EQ(k.seg[1].dest, KTEXT + 0x2000);
    CHECK_EQ(pv_elf_parse(shifted + 3, im.len - 1, &k, NULL), -XEN_EINVAL);
}

/* ------------------------------------------------------------ corpus */

static int write_file(const char *dir, const char *name, const void *p,
                      size_t len)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "wb");
    if ( !f || fwrite(p, 1, len, f) != len || fclose(f) )
    {
        perror(path);
        return 1;
    }
    return 0;
}

static int write_corpus(const char *dir)
{
    static struct image im;
    struct spec s;
    int rc = 0;

    linux_spec(&s);
    build(&im, &s);
    rc |= write_file(dir, "linux-notes", im.b, im.len);
    s.notes_in_section = true;
    build(&im, &s);
    rc |= write_file(dir, "linux-section-notes", im.b, im.len);
    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_PAE_MODE, "yes,bimodal");
    note_raw(&s.notes, "Xen", 4, XEN_ELFNOTE_SUPPORTED_FEATURES,
             "\1\2\3\4\5\6\7\0", 8);
    build(&im, &s);
    rc |= write_file(dir, "minimal", im.b, im.len);
    legacy_spec(&s, MACH_LEGACY);
    build(&im, &s);
    rc |= write_file(dir, "legacy-mach", im.b, im.len);
    legacy_spec(&s, "XEN_VER=xen-3.0,LOADER=generic,VIRT_BASE=0xC0000000,"
                "PAE=yes,BSD_SYMTAB,HYPERCALL_PAGE=0x1,VIRT_ENTRY=0xc0000010,"
                "FEATURES=nonsense|!dom0");
    build(&im, &s);
    rc |= write_file(dir, "legacy-variants", im.b, im.len);
    linux32_spec(&s, "yes");
    build(&im, &s);
    to_elf32(&im);
    rc |= write_file(dir, "linux32-notes", im.b, im.len);
    legacy_spec(&s, MACH_LEGACY);
    build(&im, &s);
    to_elf32(&im);
    rc |= write_file(dir, "legacy-mach32", im.b, im.len);

    /* Broken ones, each near a rule. */
    linux_spec(&s);
    s.seg[2].paddr = 0x1001fff;
    build(&im, &s);
    rc |= write_file(dir, "bad-overlap", im.b, im.len);
    minimal_spec(&s);
    note_str(&s.notes, XEN_ELFNOTE_FEATURES, "!foo|dom0");
    build(&im, &s);
    rc |= write_file(dir, "bad-required-feature", im.b, im.len);
    minimal_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_HYPERCALL_PAGE, 0x1800);
    build(&im, &s);
    rc |= write_file(dir, "bad-hypercall-page", im.b, im.len);
    minimal_spec(&s);
    build(&im, &s);
    memcpy(im.b + im.notes_off + 4, &(uint32_t){ 0xfffffff0 }, 4);
    rc |= write_file(dir, "bad-note-size", im.b, im.len);
    linux_spec(&s);
    note_u64(&s.notes, XEN_ELFNOTE_INIT_P2M, KTEXT);
    build(&im, &s);
    rc |= write_file(dir, "bad-init-p2m", im.b, im.len);
    legacy_spec(&s, "LOADER=generic,XEN_VER=xen-3.0,"
                "VIRT_BASE=0xffffffff80000000,HYPERCALL_PAGE=0x80000");
    build(&im, &s);
    rc |= write_file(dir, "bad-legacy-hypercall", im.b, im.len);
    linux_spec(&s);
    build(&im, &s);
    rc |= write_file(dir, "truncated-phdrs", im.b, 100);

    return rc;
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
        return write_corpus(argv[2]);

    RUN(linux_notes);
    RUN(percpu_placed_by_paddr);
    RUN(paddr_offset_applied);
    RUN(minimal_defaults);
    RUN(legacy_guest_string);
    RUN(legacy_variants);
    RUN(legacy_refused);
    RUN(notes_sources);
    RUN(pae_modes);
    RUN(features);
    RUN(foreign_notes);
    RUN(truncated_everywhere);
    RUN(flipped_everywhere);
    RUN(bad_ident);
    RUN(elf32_compat);
    RUN(elf32_refused);
    RUN(bad_tables);
    RUN(bad_segments);
    RUN(bad_placement);
    RUN(bad_addresses);
    RUN(bad_notes);
    RUN(bad_note_sections);
    RUN(too_many_notes);
    RUN(unaligned_input);

    UNIT_EXIT();
}
