/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parser of a PV guest kernel image: ELF64 or ELF32 headers, Xen ELF notes,
 * the legacy __xen_guest string and BSD_SYMTAB's symbols, checked as hostile
 * input.  Pure logic, no allocation: everything found lands in a struct
 * pv_kernel.
 */
#ifndef PV_ELF_H
#define PV_ELF_H

#include "shim/lib.h"
#include "pv/compat/layout.h"

#include <xen/xen.h>
#include <xen/elfnote.h>
#include <xen/features.h>

/*
 * The few ELF-64 structures and constants we need, from "ELF-64 Object File
 * Format", version 1.5 draft 2 (1998): section 3 (file header), 4 (sections),
 * 6 (program headers); the note layout from the System V gABI, "Note
 * Section".  The host's <elf.h> stays out of the freestanding build.
 */
#define EI_NIDENT       16
#define EI_CLASS        4
#define EI_DATA         5
#define ELFCLASS32      1
#define ELFCLASS64      2
#define ELFDATA2LSB     1
#define ET_EXEC         2
#define ET_DYN          3
#define EM_386          3
#define EM_X86_64       62
#define PN_XNUM         0xffff
#define PT_LOAD         1
#define PT_NOTE         4
#define PF_X            0x1
#define PF_W            0x2
#define PF_R            0x4
#define SHT_SYMTAB      2
#define SHT_STRTAB      3
#define SHT_NOTE        7
#define SHT_NOBITS      8
#define EV_CURRENT      1

struct elf64_ehdr {
    uint8_t  e_ident[EI_NIDENT];
    uint16_t e_type, e_machine;
    uint32_t e_version;
    uint64_t e_entry, e_phoff, e_shoff;
    uint32_t e_flags;
    uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
    uint32_t p_type, p_flags;
    uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

struct elf64_shdr {
    uint32_t sh_name, sh_type;
    uint64_t sh_flags, sh_addr, sh_offset, sh_size;
    uint32_t sh_link, sh_info;
    uint64_t sh_addralign, sh_entsize;
};

/* ELF-32 (System V gABI), read into the ELF-64 structures above. */
struct elf32_ehdr {
    uint8_t  e_ident[EI_NIDENT];
    uint16_t e_type, e_machine;
    uint32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
    uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf32_phdr {
    uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
             p_align;
};

struct elf32_shdr {
    uint32_t sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size,
             sh_link, sh_info, sh_addralign, sh_entsize;
};

struct elf64_note {
    uint32_t n_namesz, n_descsz, n_type;
};

/* At most this many loadable segments (Linux has 5). */
#define PV_ELF_MAX_SEGMENTS     8

/*
 * Largest span [vstart, vend) of a loaded image: 1 GiB, the cap Xen's
 * toolstack puts on a (decompressed) kernel (XC_DOM_DECOMPRESS_MAX).
 */
#define PV_ELF_MAX_SPAN         (1ULL << 30)

/* Xen's ELF_MAX_TOTAL_NOTE_COUNT: an image may not hold more notes. */
#define PV_ELF_MAX_NOTES        65536

/* "None given" for hypercall_page, init_p2m and hv_start_low. */
#define PV_ELF_UNSET            (~0ULL)

struct pv_elf_segment {
    uint64_t vaddr, paddr, offset, filesz, memsz;
    uint32_t flags;             /* PF_R/PF_W/PF_X */
    unsigned int phdr;          /* index in the program header table */
    /* Where it goes, guest virtual: paddr - paddr_offset + virt_base. */
    uint64_t dest;
};

/*
 * BSD_SYMTAB (pv/build/elf-symtab.c): the kernel's symbols as Xen's libelf
 * loads them after the image (elf_parse_bsdsyms(), elf_load_bsdsyms()),
 * at [start, end), guest virtual:
 *
 *   start        uint32_t size: from the ELF header to the strtab's end
 *   start + 4    ELF header (the kernel's own width), e_shoff 64, 3 sections
 *   start + 68   section headers: [0] null, [1] symtab, [2] strtab, with
 *                sh_offset from the ELF header to where each was put
 *   sym_dest     the symtab's bytes, at start + 264 (ELF64) or 260 (ELF32)
 *   str_dest     the strtab's bytes, after it
 *
 * start is the image's end rounded to 8 bytes (ELF64) or 4 (ELF32), and so
 * are str_dest and end; every other byte of the range is zero.
 */
#define PV_SYMTAB_HDR_MAX       264

struct pv_elf_symtab {
    bool loaded;
    uint64_t start, end;
    uint64_t sym_off, sym_size, sym_dest;   /* file offset, size, where */
    uint64_t str_off, str_size, str_dest;
    unsigned int hdr_len;                   /* [start, sym_dest) */
    uint8_t hdr[PV_SYMTAB_HDR_MAX];         /* its bytes, zero-padded */
};

/* PAE_MODE note (or legacy PAE=), meaningful for 32-bit guests only. */
enum pv_pae_mode {
    PV_PAE_NO,
    PV_PAE_YES,                 /* legacy "PAE=yes" */
    PV_PAE_BIMODAL,             /* note "bimodal" or "yes,bimodal" */
    PV_PAE_EXTENDED_CR3,        /* note "yes", legacy "yes[extended-cr3]" */
};

/*
 * Where a 32-bit (compat) guest's mappings end: the start of the
 * hypervisor's area in a PAE guest's 4 GiB (xen-x86_32.h, read with -m32).
 */
#define PV_COMPAT_VIRT_START    ((uint64_t)COMPAT_HYPERVISOR_VIRT_START)

struct pv_kernel {
    /* From the ELF headers. */
    bool compat;                /* ELF32 i386: a 32-bit PAE guest */
    uint64_t entry;             /* ENTRY note (legacy VIRT_ENTRY) or e_entry */
    unsigned int nr_segments;   /* PT_LOAD with any of R/W/X, in phdr order */
    struct pv_elf_segment seg[PV_ELF_MAX_SEGMENTS];
    uint64_t vstart, vend;      /* lowest dest, highest dest + memsz */

    /* From the Xen notes, or else the legacy __xen_guest string. */
    bool has_xen_notes, has_legacy_guest_string;
    uint32_t notes_present;     /* bit n: a XEN_ELFNOTE_n note was seen */
    uint64_t virt_base;         /* VIRT_BASE, default 0 */
    uint64_t paddr_offset;      /* PADDR_OFFSET, default 0 with notes,
                                   virt_base with the legacy string */
    uint64_t hypercall_page;    /* virtual address, or PV_ELF_UNSET */
    uint64_t init_p2m;          /* INIT_P2M virtual address, or PV_ELF_UNSET */
    uint64_t hv_start_low;      /* HV_START_LOW (32-bit), or PV_ELF_UNSET */
    bool mod_start_pfn;         /* MOD_START_PFN: initrd may be unmapped */
    bool suspend_cancel;        /* SUSPEND_CANCEL != 0 */
    bool bsd_symtab;            /* BSD_SYMTAB "yes": wants its symbols loaded
                                   (not included in vend) */
    struct pv_elf_symtab symtab;        /* loaded, if bsd_symtab and sane */
    const char *symtab_why;             /* else why not (bsd_symtab only) */
    char guest_os[32], guest_version[32], xen_version[32], loader[32];
    uint32_t features_supported[XENFEAT_NR_SUBMAPS];
    uint32_t features_required[XENFEAT_NR_SUBMAPS];
    enum pv_pae_mode pae;

    /* Room for an error message that names a segment or a feature. */
    char why[80];
};

/*
 * Parse the kernel image [image, image + size): ELF64 x86-64, or ELF32
 * i386 with PAE (k->compat; Xen's "xen-3.0-x86_32p").  Returns 0 with *k
 * filled in, or a negative XEN_Exxx: -XEN_ENOEXEC (not a Xen PV kernel
 * this shim runs: neither of those, or 32-bit without PAE),
 * -XEN_EINVAL (malformed), -XEN_E2BIG (beyond PV_ELF_MAX_*), -XEN_EOPNOTSUPP
 * (a required feature we don't know).  On error *why (if why isn't NULL)
 * says what is wrong: a static string or k->why.  A BSD_SYMTAB kernel whose
 * symbol table is unusable is not an error: k->symtab.loaded is false and
 * k->symtab_why says why.  Never reads outside the buffer; the image need
 * not be aligned.
 */
int pv_elf_parse(const void *image, size_t size, struct pv_kernel *k,
                 const char **why);

/* Whether the kernel's FEATURES/SUPPORTED_FEATURES list XENFEAT_<xenfeat>. */
bool pv_elf_feature_supported(const struct pv_kernel *k, unsigned int xenfeat);
/* Whether its FEATURES string requires it ('!'). */
bool pv_elf_feature_required(const struct pv_kernel *k, unsigned int xenfeat);

#endif /* PV_ELF_H */
