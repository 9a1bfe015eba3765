/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XEN_ELFNOTE_BSD_SYMTAB: the builder loads the kernel's symbols after its
 * image as Xen's libelf does (elf_load_bsdsyms()), and this kernel finds
 * them as FreeBSD's and NetBSD's do, at its `_end` rounded to a word: a
 * 32-bit size, then an ELF header of the kernel's own width with three
 * section headers (null, symtab, strtab), then the two tables, at offsets
 * from that ELF header.  Checked: every header field Xen sets, its own
 * test_main and test_title in the table with their addresses, the zeros
 * Xen leaves (XSA-194: between a 32-bit ELF header and e_shoff 64) and
 * that nothing follows the table up to the p2m, the next thing the
 * builder places, on the next page.
 */
#include "guest.h"
#include <xen/elfnote.h>

#define STR(x)  #x
#define XSTR(x) STR(x)
asm ( ".pushsection .note.Xen.override, \"a\", @note\n"
      ".balign 4\n"
      ".long 4, 4, " XSTR(XEN_ELFNOTE_BSD_SYMTAB) "\n"
      ".asciz \"Xen\"\n"
      ".balign 4\n"
      ".asciz \"yes\"\n"
      ".balign 4\n"
      ".popsection\n" );

const char test_title[] = "BSD_SYMTAB: the symbol table after the image";

/*
 * The ELF structures (System V gABI) at this kernel's width: every
 * address, offset and Xword field is an unsigned long on both.
 */
typedef struct {
    uint8_t e_ident[16];
    uint16_t e_type, e_machine;
    uint32_t e_version;
    unsigned long e_entry, e_phoff, e_shoff;
    uint32_t e_flags;
    uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} elf_ehdr;

typedef struct {
    uint32_t sh_name, sh_type;
    unsigned long sh_flags, sh_addr, sh_offset, sh_size;
    uint32_t sh_link, sh_info;
    unsigned long sh_addralign, sh_entsize;
} elf_shdr;

#ifdef __x86_64__
typedef struct {
    uint32_t st_name;
    uint8_t st_info, st_other;
    uint16_t st_shndx;
    uint64_t st_value, st_size;
} elf_sym;
#define ELF_CLASS       2
#define ELF_MACHINE     62              /* EM_X86_64 */
#else
typedef struct {
    uint32_t st_name, st_value, st_size;
    uint8_t st_info, st_other;
    uint16_t st_shndx;
} elf_sym;
#define ELF_CLASS       1
#define ELF_MACHINE     3               /* EM_386 */
#endif

#define SHT_SYMTAB      2
#define SHT_STRTAB      3
#define STT_OBJECT      1
#define STT_FUNC        2

/*
 * Xen's header is a packed struct of the size word, a 64-byte ELF header
 * slot and three 64-byte section header slots (260 bytes); the symtab
 * follows it, rounded to the width's word.
 */
#define SYMTAB_AT       ROUND_W(4 + 64 + 3 * 64)
#define ROUND_W(x)      (((x) + sizeof(long) - 1) & ~(sizeof(long) - 1))
#define ROUND_PAGE(x)   (((x) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))

extern char _end[], _start[];

/* [p, p + n) is all zero, else fail naming what and where. */
static void check_zero(const char *what, const void *p, unsigned long n)
{
    const uint8_t *b = p;
    unsigned long i;

    for ( i = 0; i < n; i++ )
        if ( b[i] )
        {
            test_fail("%s: byte %#x at %p", what, b[i], &b[i]);
            return;
        }
}

static bool check_ehdr(const elf_ehdr *eh)
{
    if ( memcmp(eh->e_ident, "\177ELF", 4) )
    {
        test_fail("no ELF header at %p", eh);
        return false;
    }
    if ( eh->e_ident[4] != ELF_CLASS || eh->e_ident[5] != 1 ||
         eh->e_ident[6] != 1 )
        test_fail("e_ident class %u data %u version %u", eh->e_ident[4],
                  eh->e_ident[5], eh->e_ident[6]);
    if ( eh->e_type != 2 || eh->e_machine != ELF_MACHINE ||
         eh->e_version != 1 || eh->e_flags )
        test_fail("e_type %u e_machine %u e_version %u e_flags %#x",
                  eh->e_type, eh->e_machine, eh->e_version, eh->e_flags);
    if ( eh->e_entry != (unsigned long)_start )
        test_fail("e_entry %#lx, _start is %p", eh->e_entry, _start);
    if ( eh->e_phoff || eh->e_phentsize || eh->e_phnum )
        test_fail("program headers: e_phoff %#lx e_phentsize %u e_phnum %u",
                  eh->e_phoff, eh->e_phentsize, eh->e_phnum);
    if ( eh->e_ehsize != sizeof(*eh) || eh->e_shentsize != sizeof(elf_shdr) ||
         eh->e_shoff != 64 || eh->e_shnum != 3 || eh->e_shstrndx )
    {
        test_fail("e_ehsize %u e_shentsize %u e_shoff %#lx e_shnum %u "
                  "e_shstrndx %u", eh->e_ehsize, eh->e_shentsize,
                  eh->e_shoff, eh->e_shnum, eh->e_shstrndx);
        return false;
    }
    /* XSA-194: Xen once leaked its stack between a 32-bit header and 64. */
    check_zero("after the ELF header", (const char *)eh + sizeof(*eh),
               64 - sizeof(*eh));

    return true;
}

static bool check_shdrs(const elf_shdr *sh, unsigned long base)
{
    unsigned long str_at = ROUND_W(base - 4 + SYMTAB_AT + sh[1].sh_size);

    check_zero("section header 0", &sh[0], sizeof(sh[0]));
    if ( sh[1].sh_type != SHT_SYMTAB || sh[1].sh_link != 2 ||
         sh[1].sh_entsize != sizeof(elf_sym) ||
         sh[1].sh_size % sizeof(elf_sym) || !sh[1].sh_size ||
         sh[1].sh_offset != SYMTAB_AT - 4 )
    {
        test_fail("symtab: type %u link %u entsize %lu size %#lx offset "
                  "%#lx", sh[1].sh_type, sh[1].sh_link, sh[1].sh_entsize,
                  sh[1].sh_size, sh[1].sh_offset);
        return false;
    }
    if ( sh[2].sh_type != SHT_STRTAB || !sh[2].sh_size ||
         sh[2].sh_offset != str_at - base )
    {
        test_fail("strtab: type %u size %#lx offset %#lx (want %#lx)",
                  sh[2].sh_type, sh[2].sh_size, sh[2].sh_offset,
                  str_at - base);
        return false;
    }

    return true;
}

/* The symbol named @name, which must be a @type at @addr of @size. */
static void check_symbol(const elf_sym *sym, unsigned long nr,
                         const char *str, unsigned long str_size,
                         const char *name, unsigned int type,
                         const void *addr, unsigned long size)
{
    unsigned long i;

    for ( i = 1; i < nr; i++ )
    {
        if ( sym[i].st_name >= str_size )
        {
            test_fail("symbol %lu: st_name %#x past the strtab", i,
                      sym[i].st_name);
            return;
        }
        if ( strcmp(str + sym[i].st_name, name) )
            continue;
        if ( (sym[i].st_info & 0xf) != type ||
             sym[i].st_value != (unsigned long)addr ||
             (size && sym[i].st_size != size) )
            test_fail("%s: type %u value %#lx size %lu, wanted %u at %p "
                      "size %lu", name, sym[i].st_info & 0xf,
                      (unsigned long)sym[i].st_value,
                      (unsigned long)sym[i].st_size, type, addr, size);
        return;
    }
    test_fail("no symbol %s among %lu", name, nr);
}

void test_main(void)
{
    unsigned long start = ROUND_W((unsigned long)_end), base = start + 4;
    uint32_t size = *(const uint32_t *)start;
    const elf_ehdr *eh = (const void *)base;
    const elf_shdr *sh = (const void *)(base + 64);
    unsigned long shdrs_end = base + 64 + 3 * sizeof(elf_shdr);
    unsigned long sym_end, str_at, end;
    const char *str;

    printf("table at %#lx, size word %#x\n", start, size);
    if ( !check_ehdr(eh) || !check_shdrs(sh, base) )
        return;

    check_zero("after the section headers", (void *)shdrs_end,
               start + SYMTAB_AT - shdrs_end);
    sym_end = base + sh[1].sh_offset + sh[1].sh_size;
    str_at = base + sh[2].sh_offset;
    check_zero("after the symtab", (void *)sym_end, str_at - sym_end);
    if ( size != sh[2].sh_offset + sh[2].sh_size )
        test_fail("size word %#x, strtab ends at %#lx", size,
                  sh[2].sh_offset + sh[2].sh_size);

    str = (const char *)str_at;
    if ( str[0] || str[sh[2].sh_size - 1] )
        test_fail("strtab doesn't start and end with NUL");
    else
    {
        check_symbol((const void *)(base + sh[1].sh_offset),
                     sh[1].sh_size / sizeof(elf_sym), str, sh[2].sh_size,
                     "test_main", STT_FUNC, test_main, 0);
        check_symbol((const void *)(base + sh[1].sh_offset),
                     sh[1].sh_size / sizeof(elf_sym), str, sh[2].sh_size,
                     "test_title", STT_OBJECT, test_title,
                     sizeof(test_title));
    }

    /* Nothing after it: zeros up to the p2m, on the next page. */
    end = ROUND_W(str_at + sh[2].sh_size);
    check_zero("after the table", (void *)(str_at + sh[2].sh_size),
               ROUND_PAGE(end) - (str_at + sh[2].sh_size));
    if ( start_info->mfn_list != ROUND_PAGE(end) )
        test_fail("mfn_list %#lx, not the page after the table's end %#lx",
                  start_info->mfn_list, end);

    test_success();
}
