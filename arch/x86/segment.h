/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Segments: the bits of a descriptor (SDM vol. 3A, 3.4.5 and table 3-2,
 * with Xen's names from its asm/desc.h), LDT and TSS descriptors, and
 * loading LDTR, TR and the segment registers.  The shim's own selectors
 * are its GDT's layout: arch/x86/desc.h.
 */
#ifndef ARCH_X86_SEGMENT_H
#define ARCH_X86_SEGMENT_H

#include "arch/x86/uaccess.h"

/* Bits of a descriptor's high 32 bits (and of what `lar` reads). */
#define _SEGMENT_TYPE       (15u << 8)
#define _SEGMENT_S          (1u << 12)  /* code or data (clear: system) */
#define _SEGMENT_DPL        (3u << 13)
#define _SEGMENT_P          (1u << 15)
#define _SEGMENT_L          (1u << 21)  /* 64-bit code */
#define _SEGMENT_G          (1u << 23)  /* limit in pages */

/* System descriptor types in long mode (SDM vol. 3A, table 3-2). */
#define SYS_DESC_ldt        2
#define SYS_DESC_tss_avail  9
#define SYS_DESC_tss_busy   11
#define SYS_DESC_call_gate  12
#define SYS_DESC_irq_gate   14
#define SYS_DESC_trap_gate  15

/*
 * A present, DPL 0 LDT or TSS descriptor (@type SYS_DESC_ldt or
 * SYS_DESC_tss_avail): 16 bytes at @d, for a table of @limit + 1 bytes.
 */
static inline void set_tssldt_desc(uint64_t *d, uint64_t base,
                                   uint64_t limit, unsigned int type)
{
    d[0] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
           ((uint64_t)(_SEGMENT_P | (type << 8)) << 32) |
           (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
    d[1] = base >> 32;
}

/* Load LDTR (0: no LDT) and TR from the GDT. */
static inline void lldt(unsigned int sel)
{
    asm volatile ( "lldt %w0" :: "r" (sel) );
}

static inline void ltr(unsigned int sel)
{
    asm volatile ( "ltr %w0" :: "r" (sel) );
}

/*
 * @sel's access rights as `lar` reads them (a descriptor's high 32 bits,
 * _SEGMENT_* among them), or 0 if its descriptor isn't visible here.
 */
static inline unsigned int lar(unsigned int sel)
{
    unsigned int ar = 0;
    bool ok;

    asm ( "lar %[sel], %[ar]"
          : [ar] "+r" (ar), "=@ccz" (ok) : [sel] "r" (sel) );
    return ok ? ar : 0;
}

/* Exchange GS_BASE and SHADOW_GS_BASE. */
static inline void swapgs(void)
{
    asm volatile ( "swapgs" );
}

/* Load segment register @seg (ds, es, fs or gs) with @sel; may fault. */
#define write_sreg(seg, sel) \
    asm volatile ( "mov %0, %%" #seg :: "r" (sel) )

/* The selector in segment register @seg (ds, es, fs or gs). */
#define read_sreg(seg) ({                                               \
    unsigned int s_;                                                    \
                                                                        \
    asm volatile ( "mov %%" #seg ", %k0" : "=r" (s_) );                 \
    (uint16_t)s_;                                                       \
})

/* NUL into %ds, %es, %fs and %gs. */
static inline void load_nul_data_segments(void)
{
    asm volatile ( "mov %0, %%ds; mov %0, %%es; mov %0, %%fs; "
                   "mov %0, %%gs" :: "r" (0) : "memory" );
}

/*
 * Xen's loadsegment(): load @seg (ds, es, fs or gs) with @sel, a
 * selector a guest chose; should its descriptor be missing or not
 * present, the load faults and the fix-up loads NUL instead.
 */
#define loadsegment(seg, sel) ({                                        \
    unsigned int s_ = (sel);                                            \
                                                                        \
    asm volatile ( "1: mov %k0, %%" #seg "\n"                           \
                   "2:\n"                                               \
                   "   .pushsection .text.fixup, \"ax\"\n"              \
                   "3: xor %k0, %k0\n"                                  \
                   "   mov %k0, %%" #seg "\n"                           \
                   "   jmp 2b\n"                                        \
                   "   .popsection\n"                                   \
                   _ASM_EXTABLE(1b, 3b)                                 \
                   : "+r" (s_) : : "memory" );                          \
})

/*
 * Load %gs with @sel; should that fault, load @flat (a flat data
 * selector) and then NUL: on AMD a NUL load keeps the old base, so the
 * flat one zeroes it first.
 */
static inline void load_gs_or_nul(unsigned int sel, unsigned int flat)
{
    asm volatile ( "1: mov %k[sel], %%gs\n\t"
                   "   jmp 3f\n\t"
                   "2: mov %k[flat], %%gs\n\t"
                   "   xor %k[sel], %k[sel]\n\t"
                   "   jmp 1b\n\t"
                   "3:\n\t"
                   _ASM_EXTABLE(1b, 2b)
                   : [sel] "+r" (sel) : [flat] "r" (flat) );
}

#endif /* ARCH_X86_SEGMENT_H */
