/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV kernel image parser (pv/build/elf.h): ELF64 headers, segments
 * and where each lands, by Xen's libelf rules (libelf-loader.c,
 * libelf-dominfo.c), stricter.  The Xen notes and __xen_guest are in
 * pv/build/elf-notes.c.
 */
#include "pv/build/elf-internal.h"

#include <xen/errno.h>

#define PAGE_MASK_4K    0xfffULL

/*
 * What a 64-bit PV guest may map: the lower canonical half, and the upper
 * half above Xen's reserved area (xen/arch-x86/xen-x86_64.h).  A 32-bit
 * one: its 4 GiB below the hypervisor's area (PV_COMPAT_VIRT_START).
 */
#define GUEST_LOW_END       (1ULL << 47)
#define GUEST_HIGH_START    __HYPERVISOR_VIRT_END

/* ------------------------------------------------------------ headers */

static size_t phdr_size(const struct elf_ctx *c)
{
    return c->elf32 ? sizeof(struct elf32_phdr) : sizeof(struct elf64_phdr);
}

static size_t shdr_size(const struct elf_ctx *c)
{
    return c->elf32 ? sizeof(struct elf32_shdr) : sizeof(struct elf64_shdr);
}

/*
 * The file header, an ELF32 one widened into *eh (c->elf32 set): the rest
 * of the parser sees ELF-64 structures only.
 */
static int read_ehdr(struct elf_ctx *c, struct elf64_ehdr *eh)
{
    struct elf32_ehdr e;

    if ( c->size < EI_NIDENT || c->img[EI_CLASS] != ELFCLASS32 )
    {
        if ( c->size < sizeof(*eh) )
            return fail(c, -XEN_EINVAL, "truncated ELF header");
        memcpy(eh, c->img, sizeof(*eh));
        return 0;
    }
    if ( c->size < sizeof(e) )
        return fail(c, -XEN_EINVAL, "truncated ELF header");
    memcpy(&e, c->img, sizeof(e));
    c->elf32 = true;
    memcpy(eh->e_ident, e.e_ident, EI_NIDENT);
    eh->e_type = e.e_type;
    eh->e_machine = e.e_machine;
    eh->e_version = e.e_version;
    eh->e_entry = e.e_entry;
    eh->e_phoff = e.e_phoff;
    eh->e_shoff = e.e_shoff;
    eh->e_flags = e.e_flags;
    eh->e_ehsize = e.e_ehsize;
    eh->e_phentsize = e.e_phentsize;
    eh->e_phnum = e.e_phnum;
    eh->e_shentsize = e.e_shentsize;
    eh->e_shnum = e.e_shnum;
    eh->e_shstrndx = e.e_shstrndx;
    return 0;
}

static int check_ehdr(struct elf_ctx *c, const struct elf64_ehdr *eh)
{
    uint64_t phsize = (uint64_t)eh->e_phnum * phdr_size(c);

    if ( eh->e_ident[EI_DATA] != ELFDATA2LSB ||
         (c->elf32 ? eh->e_machine != EM_386
                   : eh->e_ident[EI_CLASS] != ELFCLASS64 ||
                     eh->e_machine != EM_X86_64) )
        return fail(c, -XEN_ENOEXEC, "not ELF64 x86-64 or ELF32 i386");
    /* Xen doesn't look at e_type; we take what a linker makes of a kernel. */
    if ( eh->e_type != ET_EXEC && eh->e_type != ET_DYN )
        return fail(c, -XEN_ENOEXEC, "not an executable");

    if ( eh->e_phnum == 0 )
        return fail(c, -XEN_ENOEXEC, "no program headers");
    if ( eh->e_phnum == PN_XNUM )
        return fail(c, -XEN_EINVAL, "too many program headers");
    if ( eh->e_phentsize != phdr_size(c) )
        return fail(c, -XEN_EINVAL, "bad program header size");
    if ( !in_file(c, eh->e_phoff, phsize) )
        return fail(c, -XEN_EINVAL, "program header table outside the file");

    /* No table (e_shoff 0), or extended numbering (e_shnum 0): no sections. */
    if ( eh->e_shoff && eh->e_shnum )
    {
        if ( eh->e_shentsize != shdr_size(c) )
            return fail(c, -XEN_EINVAL, "bad section header size");
        if ( !in_file(c, eh->e_shoff, (uint64_t)eh->e_shnum * shdr_size(c)) )
            return fail(c, -XEN_EINVAL,
                        "section header table outside the file");
        c->shoff = eh->e_shoff;
        c->shnum = eh->e_shnum;
        c->shstrndx = eh->e_shstrndx;
    }

    return 0;
}

void read_phdr(const struct elf_ctx *c, const struct elf64_ehdr *eh,
               unsigned int i, struct elf64_phdr *ph)
{
    const uint8_t *p = c->img + eh->e_phoff + (uint64_t)i * phdr_size(c);
    struct elf32_phdr p32;

    if ( !c->elf32 )
    {
        memcpy(ph, p, sizeof(*ph));
        return;
    }
    memcpy(&p32, p, sizeof(p32));
    *ph = (struct elf64_phdr){
        .p_type = p32.p_type, .p_flags = p32.p_flags,
        .p_offset = p32.p_offset, .p_vaddr = p32.p_vaddr,
        .p_paddr = p32.p_paddr, .p_filesz = p32.p_filesz,
        .p_memsz = p32.p_memsz, .p_align = p32.p_align,
    };
}

void read_shdr(const struct elf_ctx *c, unsigned int i,
               struct elf64_shdr *sh)
{
    const uint8_t *p = c->img + c->shoff + (uint64_t)i * shdr_size(c);
    struct elf32_shdr s32;

    if ( !c->elf32 )
    {
        memcpy(sh, p, sizeof(*sh));
        return;
    }
    memcpy(&s32, p, sizeof(s32));
    *sh = (struct elf64_shdr){
        .sh_name = s32.sh_name, .sh_type = s32.sh_type,
        .sh_flags = s32.sh_flags, .sh_addr = s32.sh_addr,
        .sh_offset = s32.sh_offset, .sh_size = s32.sh_size,
        .sh_link = s32.sh_link, .sh_info = s32.sh_info,
        .sh_addralign = s32.sh_addralign, .sh_entsize = s32.sh_entsize,
    };
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

/* ------------------------------------------------------------ placement */

bool guest_range(const struct pv_kernel *k, uint64_t start, uint64_t end)
{
    if ( k->compat )
        return end <= PV_COMPAT_VIRT_START;
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
        if ( !guest_range(k, s->dest, s->dest + s->memsz) )
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

/*
 * A 32-bit kernel: only PAE ones run on a 64-bit Xen ("xen-3.0-x86_32p";
 * libxc finds no "xen-3.0-x86_32" among its capabilities), and its notes
 * can't ask for the hypervisor's area to start higher than Xen's default.
 */
static int check_compat(struct elf_ctx *c)
{
    const struct pv_kernel *k = c->k;

    if ( !k->compat )
        return 0;
    if ( k->pae == PV_PAE_NO )
        return fail(c, -XEN_ENOEXEC, "32-bit kernel without PAE");
    if ( k->hv_start_low != PV_ELF_UNSET &&
         k->hv_start_low > PV_COMPAT_VIRT_START )
        return fail(c, -XEN_EINVAL,
                    "HV_START_LOW above the hypervisor's area");
    return 0;
}

/* ------------------------------------------------------------ entry */

static int parse_image(struct elf_ctx *c)
{
    struct elf64_ehdr eh;
    int rc;

    if ( c->size >= 4 && memcmp(c->img, "\177ELF", 4) )
        return fail(c, -XEN_ENOEXEC, "not an ELF image");
    if ( (rc = read_ehdr(c, &eh)) )
        return rc;
    c->k->compat = c->elf32;

    if ( (rc = check_ehdr(c, &eh)) || (rc = parse_segments(c, &eh)) ||
         (rc = find_notes(c, &eh)) )
        return rc;
    if ( !c->k->has_xen_notes && (rc = find_legacy(c)) )
        return rc;
    if ( (rc = check_xen_info(c)) || (rc = check_compat(c)) ||
         (rc = place_segments(c)) )
        return rc;

    if ( (rc = check_addresses(c, &eh)) )
        return rc;
    find_symtab(c, &eh);

    return 0;
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
