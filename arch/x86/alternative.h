/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Alternatives: code the shim patches once at boot, as Xen's
 * (xen/arch/x86/alternative.c, asm/alternative-asm.h), so that a choice
 * made at boot costs the entry and exit paths no test at all.
 *
 * A site is the original code, padded to the longest of its replacements;
 * each replacement, in .altinstr_replacement, comes with a condition on
 * the boot-time flags: spec_ctrl_flags (spec-ctrl.h) in bits 0-7, and
 * the ALTF_* below.  At boot, before any other CPU runs and before the
 * guest does, the last of a site's replacements whose condition holds is
 * copied over it; if none holds, the original stays.  What is left of
 * the site is filled with one instruction: a NOP of up to 9 bytes, else a
 * jmp over the rest.
 *
 * A replacement moves, so it may not branch out of itself, except by a
 * rel32 jmp or call as its first instruction (JMP32 below), which the
 * patch corrects for the move (Xen's rule).  Branches inside it and to
 * its own labels are fine.
 */
#ifndef ARCH_X86_ALTERNATIVE_H
#define ARCH_X86_ALTERNATIVE_H

#define ALTF_SMAP           0x100       /* CR4.SMAP on (smap_enabled) */

/* Conditions: any of @mask set, or none of it. */
#define ALT_IF(mask)        (mask)
/* No spaces: these are gas macro arguments. */
#define ALT_IFNOT(mask)     ((mask)|ALT_NEGATE)
#define ALT_NEGATE          0x8000

#ifdef __ASSEMBLER__

/* A jmp that is rel32 whatever the distance: its length is fixed. */
.macro JMP32 target
        .byte   0xe9
        .long   \target - . - 4
.endm

.macro ALT_ENTRY site, repl, cond, orig_len, repl_len, site_len
        .pushsection .altinstructions, "a", @progbits
        .balign 4
        .long   \site - .
        .long   \repl - .
        .word   \cond
        .byte   \orig_len, \repl_len, \site_len
        .byte   0, 0, 0
        .popsection
.endm

/* The larger of two absolute expressions (gas: a true compare is -1). */
#define ALT_MAX(a, b)   ((a) ^ (((a) ^ (b)) & ((a) < (b))))

/*
 * ALTERNATIVE orig, repl, cond: @orig at the site, @repl over it at boot
 * if @cond holds.  Each argument is one or more instructions (`;`
 * between them).
 */
.macro ALTERNATIVE orig, repl, cond
        .pushsection .altinstr_replacement, "ax", @progbits
.L\@_rs:
        \repl
.L\@_re:
        .popsection
.L\@_os:
        \orig
.L\@_oe:
        .nops   ALT_MAX(0, (.L\@_re - .L\@_rs) - (.L\@_oe - .L\@_os))
.L\@_se:
        ALT_ENTRY .L\@_os, .L\@_rs, \cond, (.L\@_oe-.L\@_os), \
                  (.L\@_re-.L\@_rs), (.L\@_se-.L\@_os)
.endm

/* Two replacements: the second wins where both conditions hold. */
.macro ALTERNATIVE_2 orig, repl1, cond1, repl2, cond2
        .pushsection .altinstr_replacement, "ax", @progbits
.L\@_r1s:
        \repl1
.L\@_r1e:
.L\@_r2s:
        \repl2
.L\@_r2e:
        .popsection
.L\@_os:
        \orig
.L\@_oe:
        .nops   ALT_MAX(0, ALT_MAX(.L\@_r1e - .L\@_r1s, .L\@_r2e - .L\@_r2s) - \
                           (.L\@_oe - .L\@_os))
.L\@_se:
        ALT_ENTRY .L\@_os, .L\@_r1s, \cond1, (.L\@_oe-.L\@_os), \
                  (.L\@_r1e-.L\@_r1s), (.L\@_se-.L\@_os)
        ALT_ENTRY .L\@_os, .L\@_r2s, \cond2, (.L\@_oe-.L\@_os), \
                  (.L\@_r2e-.L\@_r2s), (.L\@_se-.L\@_os)
.endm

#else /* !__ASSEMBLER__ */

#include <stdint.h>

/*
 * The same for inline asm: ALTERNATIVE(orig, repl, cond) is the text of
 * a site, @cond an operand's name of an "i" constraint, e.g.
 *   asm volatile ( ALTERNATIVE("", "stac", "%c[c]")
 *                  :: [c] "i" (ALT_IF(ALTF_SMAP)) : "memory" );
 * (numeric labels 661-665, as Linux's: none of the shim's asm uses them).
 */
#define ALTERNATIVE(orig, repl, cond)                                   \
    "661:\n\t" orig "\n662:\n\t"                                        \
    ".pushsection .altinstr_replacement, \"ax\", @progbits\n"           \
    "663:\n\t" repl "\n664:\n\t"                                        \
    ".popsection\n\t"                                                   \
    ".nops (-(((664b-663b)-(662b-661b)) > 0)) * "                       \
    "((664b-663b)-(662b-661b))\n"                                       \
    "665:\n\t"                                                          \
    ".pushsection .altinstructions, \"a\", @progbits\n\t"               \
    ".balign 4\n\t"                                                     \
    ".long 661b - .\n\t"                                                \
    ".long 663b - .\n\t"                                                \
    ".word " cond "\n\t"                                                \
    ".byte 662b-661b, 664b-663b, 665b-661b\n\t"                         \
    ".byte 0, 0, 0\n\t"                                                 \
    ".popsection\n"

/* One entry of .altinstructions; a site's entries are adjacent. */
struct alt_instr {
    int32_t site;               /* relative to this field */
    int32_t repl;               /* relative to this field */
    uint16_t cond;              /* ALT_IF() / ALT_IFNOT() */
    uint8_t orig_len;           /* the original's bytes */
    uint8_t repl_len;           /* the replacement's */
    uint8_t site_len;           /* the site's, padding included */
    uint8_t _rsvd[3];
};

static inline uint8_t *alt_site(const struct alt_instr *a)
{
    return (uint8_t *)&a->site + a->site;
}

static inline const uint8_t *alt_repl(const struct alt_instr *a)
{
    return (const uint8_t *)&a->repl + a->repl;
}

/* Does @cond hold for the boot-time @flags? */
static inline int alt_holds(uint16_t cond, unsigned int flags)
{
    int any = !!(flags & cond & ~ALT_NEGATE);

    return cond & ALT_NEGATE ? !any : any;
}

/*
 * Fill @n bytes at @p with one instruction that ends at @p + @n: a NOP
 * (Intel's recommended forms) up to 9 bytes, else a jmp, the bytes
 * after it int3.
 */
void alt_fill(uint8_t *p, unsigned int n);

/*
 * Patch every site of [@start, @end) for @flags.  @write(@addr) gives a
 * writable alias of the code at @addr (the same address on the host).
 * Returns how many sites took a replacement, or -1 if an entry is
 * malformed (lengths that don't fit the site, entries of one site that
 * disagree): then nothing after it was patched.
 */
int alt_apply(const struct alt_instr *start, const struct alt_instr *end,
              unsigned int flags, uint8_t *(*write)(uint8_t *addr));

/* At boot, once spec_ctrl_flags are known, before the other CPUs run. */
void alternatives_init(void);

#endif /* __ASSEMBLER__ */

#endif /* ARCH_X86_ALTERNATIVE_H */
