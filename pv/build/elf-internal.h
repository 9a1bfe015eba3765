/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the kernel parser (pv/build/elf.c, elf-notes.c, elf-legacy.c,
 * elf-symtab.c): the parse context, the helpers they use to refuse an
 * image, and the calls from one file to another.
 */
#ifndef PV_ELF_INTERNAL_H
#define PV_ELF_INTERNAL_H

#include "pv/build/elf.h"

struct elf_ctx {
    const uint8_t *img;
    size_t size;
    struct pv_kernel *k;
    const char *why;
    size_t why_len;
    uint64_t shoff;
    unsigned int shnum, shstrndx, nr_notes;
    bool elf32;                         /* ELFCLASS32: headers converted */
    bool entry_set, virt_base_set, paddr_offset_set, legacy_hypercall_set;
    uint64_t legacy_hypercall_pfn;
};

static inline int fail(struct elf_ctx *c, int rc, const char *msg)
{
    c->why = msg;
    return rc;
}

/* Append len bytes of s to the message in k->why, '?' for unprintables. */
static inline void why_strn(struct elf_ctx *c, const char *s, size_t len)
{
    char *buf = c->k->why;

    for ( ; len && *s && c->why_len < sizeof(c->k->why) - 1; s++, len-- )
        buf[c->why_len++] = (*s >= ' ' && *s <= '~') ? *s : '?';
    buf[c->why_len] = '\0';
    c->why = buf;
}

static inline void why_str(struct elf_ctx *c, const char *s)
{
    why_strn(c, s, sizeof(c->k->why));
}

static inline void why_num(struct elf_ctx *c, unsigned int n)
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
static inline int fail_seg(struct elf_ctx *c, int rc, unsigned int n,
                           const char *what)
{
    why_str(c, "segment ");
    why_num(c, n);
    why_str(c, what);
    return rc;
}

/* [off, off + len) lies inside the file. */
static inline bool in_file(const struct elf_ctx *c, uint64_t off, uint64_t len)
{
    return off <= c->size && len <= c->size - off;
}

/* The counted string [s, s + len) equals the C string lit. */
static inline bool str_is(const char *s, size_t len, const char *lit)
{
    return len == strlen(lit) && !memcmp(s, lit, len);
}

static inline void copy_str(char *dst, size_t dst_size, const char *s,
                            size_t len)
{
    len = MIN(len, dst_size - 1);
    memcpy(dst, s, len);
    dst[len] = '\0';
}

/* pv/build/elf.c */
void read_phdr(const struct elf_ctx *c, const struct elf64_ehdr *eh,
               unsigned int i, struct elf64_phdr *ph);
void read_shdr(const struct elf_ctx *c, unsigned int i,
               struct elf64_shdr *sh);
/* [start, end) is guest address space (32-bit: below the hypervisor hole). */
bool guest_range(const struct pv_kernel *k, uint64_t start, uint64_t end);

/* pv/build/elf-notes.c, pv/build/elf-legacy.c */
int find_notes(struct elf_ctx *c, const struct elf64_ehdr *eh);
int find_legacy(struct elf_ctx *c);
int parse_features(struct elf_ctx *c, const char *s, size_t len);
int check_xen_info(struct elf_ctx *c);

/*
 * pv/build/elf-symtab.c: with BSD_SYMTAB, k->symtab for a sane table, else
 * k->symtab_why.  Never refuses the image (Xen boots it without symbols).
 */
void find_symtab(struct elf_ctx *c, const struct elf64_ehdr *eh);

#endif /* PV_ELF_INTERNAL_H */
