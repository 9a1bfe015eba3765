/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writable page tables (VMASST_TYPE_writable_pagetables), as Xen's
 * pv/mm/ro-page-fault.c: a guest kernel write that faults on one of its own
 * L1 tables (mapped read-only, as page tables always are) is decoded,
 * the new entry validated by mod_entry() and applied, and the guest moves
 * past the instruction.  Only the store and read-modify-write forms
 * pv/mm/ptwr-decode.c knows are emulated; anything else, or an entry that
 * fails validation, is the guest's own #PF.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/eflags.h"
#include "arch/x86/exception.h"
#include "arch/x86/layout.h"
#include "arch/x86/msr.h"
#include "arch/x86/page.h"
#include "pv/guest-access.h"
#include "pv/mm/mm.h"
#include "pv/mm/ptwr-decode.h"
#include "pv/traps.h"
#include "shim/console.h"
#include "shim/param.h"
#include "shim/perfc.h"

/* The guest's GPRs in x86 encoding order (rax, rcx, rdx, rbx, rsp...). */
static uint64_t *gpr_slot(struct cpu_regs *r, int n)
{
#define GPR(reg) offsetof(struct cpu_regs, reg)
    static const uint8_t offsets[16] = {
        GPR(rax), GPR(rcx), GPR(rdx), GPR(rbx), GPR(rsp), GPR(rbp), GPR(rsi),
        GPR(rdi), GPR(r8), GPR(r9), GPR(r10), GPR(r11), GPR(r12), GPR(r13),
        GPR(r14), GPR(r15),
    };
#undef GPR

    return (uint64_t *)((char *)r + offsets[n & 15]);
}

/* Instruction bytes at @rip: as many of the 15 as are readable. */
static size_t fetch(unsigned long rip, uint8_t *buf)
{
    size_t n = 15;

    while ( n && copy_from_guest(buf, rip, n) )
        n--;
    return n;
}

/* A @size-byte store of @v at byte @off of @old. */
static uint64_t merge(uint64_t old, uint64_t v, unsigned int off,
                      unsigned int size)
{
    uint64_t mask = size == 8 ? ~0ULL : ((1ULL << (size * 8)) - 1) << (off * 8);

    return (old & ~mask) | ((v << (off * 8)) & mask);
}

/* The @size bytes at byte @off of @old. */
static uint64_t part(uint64_t old, unsigned int off, unsigned int size)
{
    return size == 8 ? old : (old >> (off * 8)) & ((1ULL << (size * 8)) - 1);
}

/* The flags a CMP of @a with @b leaves, @size bytes wide. */
static uint64_t cmp_flags(uint64_t a, uint64_t b, unsigned int size)
{
    uint64_t f;

    if ( size == 8 )
        asm ( "cmp %2, %1; pushf; pop %0" : "=r" (f) : "r" (a), "r" (b)
              : "cc" );
    else
        asm ( "cmp %k2, %k1; pushf; pop %0" : "=r" (f) : "r" (a), "r" (b)
              : "cc" );
    return f & X86_EFLAGS_ARITH_MASK;
}

/* One try at an emulated write: done, refused (the guest's #PF), or again. */
enum ptwr_try { PTWR_REFUSED, PTWR_DONE, PTWR_AGAIN };

/*
 * ptwr-ad-race (a test aid): as each emulated write first commits, set
 * the entry's Accessed bit (and Dirty, in a writable L1 entry), as a
 * page walk on another CPU may between the read and the write, so that
 * the retry shows (ptwr-ad-race test).
 */
static bool __read_mostly opt_ptwr_ad_race;
boolean_param("ptwr-ad-race", opt_ptwr_ad_race);

static void walk_sets_ad(unsigned long table, unsigned int level,
                         unsigned int idx)
{
    uint64_t *slot = (uint64_t *)__va(table << PAGE_SHIFT) + idx;
    uint64_t e = ACCESS_ONCE(*slot);

    if ( e & _PAGE_PRESENT )
        __atomic_fetch_or(slot, _PAGE_ACCESSED |
                          (level == 1 && (e & _PAGE_RW) ? _PAGE_DIRTY : 0),
                          __ATOMIC_SEQ_CST);
}

/* A try's write: an entry changed meanwhile is another try. */
static enum ptwr_try commit(unsigned long table, unsigned int level,
                            unsigned int idx, uint64_t old, uint64_t val,
                            bool first)
{
    int rc;

    if ( unlikely(opt_ptwr_ad_race) && first )
        walk_sets_ad(table, level, idx);
    rc = mod_entry_cmpxchg(table, level, idx, old, val);

    return rc == MOD_ENTRY_CHANGED ? PTWR_AGAIN
                                   : rc ? PTWR_REFUSED : PTWR_DONE;
}

/*
 * OR/AND/XOR/BTS/BTR/BTC on the entry: the whole read-modify-write happens
 * here, under the table's page lock, and is written only over the entry
 * it read (a CPU's page walk may set the Accessed or Dirty bit meanwhile:
 * then it is tried again on what the walk left), so it is atomic to the
 * guest whether it was locked or not.  The new entry must pass
 * mod_entry()'s checks like any write; an unchanged one is not written
 * (as Xen's emulator), but the flags still come out as the instruction
 * leaves them.
 */
static enum ptwr_try emulate_rmw(struct cpu_regs *regs,
                                 const struct ptwr_insn *in,
                                 unsigned long table, unsigned int level,
                                 unsigned int idx, unsigned int off,
                                 bool first)
{
    uint64_t old = ACCESS_ONCE(((uint64_t *)__va(table << PAGE_SHIFT))[idx]);
    uint64_t cur = part(old, off, in->size), src = in->imm, flags, val;
    enum ptwr_try t;

    if ( in->src_reg != PTWR_NO_REG )
        src = *gpr_slot(regs, in->src_reg) >> (in->src_high8 ? 8 : 0);
    flags = regs->rflags;
    val = ptwr_rmw(in, cur, src, &flags);

    if ( val != cur &&
         (t = commit(table, level, idx, old,
                     merge(old, val, off, in->size), first)) != PTWR_DONE )
        return t;

    regs->rflags = flags;
    regs->rip += in->len;
    return PTWR_DONE;
}

/*
 * Any other write (mov, xchg, cmpxchg, cmpxchg8b), likewise over the
 * entry it read: a 4-byte store to one half must not undo a Dirty bit a
 * walk set in the other, and an xchg or cmpxchg hands back the entry as
 * it was when written.
 */
static enum ptwr_try emulate_try(struct cpu_regs *regs,
                                 const struct ptwr_insn *in,
                                 unsigned long table, unsigned int level,
                                 unsigned int idx, unsigned int off,
                                 bool first)
{
    uint64_t old, cur, val, cmp, rflags = regs->rflags;
    bool store = true;
    enum ptwr_try t;

    if ( ptwr_is_rmw(in->kind) )
        return emulate_rmw(regs, in, table, level, idx, off, first);
    old = ACCESS_ONCE(((uint64_t *)__va(table << PAGE_SHIFT))[idx]);
    cur = part(old, off, in->size);

    val = in->src_reg == PTWR_NO_REG ? in->imm : *gpr_slot(regs, in->src_reg);
    if ( in->kind == PTWR_CMPXCHG8B )
        val = (*gpr_slot(regs, in->src_hi) << 32) |
              (uint32_t)*gpr_slot(regs, in->src_reg);

    if ( in->kind == PTWR_CMPXCHG || in->kind == PTWR_CMPXCHG8B )
    {
        cmp = in->kind == PTWR_CMPXCHG8B
              ? (*gpr_slot(regs, in->cmp_hi) << 32) |
                (uint32_t)*gpr_slot(regs, in->cmp_reg)
              : *gpr_slot(regs, in->cmp_reg);
        if ( in->size == 4 )
            cmp = (uint32_t)cmp;
        rflags = (rflags & ~X86_EFLAGS_ARITH_MASK) |
                 cmp_flags(cmp, cur, in->size);
        store = cmp == cur;
    }

    if ( store &&
         (t = commit(table, level, idx, old,
                     merge(old, val, off, in->size), first)) != PTWR_DONE )
    {
        if ( t == PTWR_AGAIN )
            return t;
        /*
         * Xen's ptwr_emulated_update(): a 32-bit guest that writes a PAE
         * entry's upper half first, by a plain store, may make it invalid
         * for a moment; it goes in not present, on the guess that the
         * lower half follows at once.
         */
        val = merge(old, val, off, in->size);
        if ( !dom.compat || level != 1 || in->size != 4 || off != 4 ||
             in->kind == PTWR_CMPXCHG || !(val & _PAGE_PRESENT) )
            return PTWR_REFUSED;        /* refused: the guest's #PF */
        if ( (t = commit(table, 1, idx, old, val & ~_PAGE_PRESENT,
                         false)) != PTWR_DONE )
            return t;
    }

    /* What the instruction hands back in registers. */
    switch ( in->kind )
    {
    case PTWR_XCHG:
        *gpr_slot(regs, in->src_reg) = in->size == 4 ? (uint32_t)cur : cur;
        break;
    case PTWR_CMPXCHG:
        if ( !store )
            *gpr_slot(regs, in->cmp_reg) = in->size == 4 ? (uint32_t)cur
                                                          : cur;
        break;
    case PTWR_CMPXCHG8B:
        if ( !store )
        {
            *gpr_slot(regs, in->cmp_reg) = (uint32_t)cur;
            *gpr_slot(regs, in->cmp_hi) = cur >> 32;
        }
        break;
    }
    regs->rflags = rflags;
    regs->rip += in->len;
    return PTWR_DONE;
}

/*
 * Tried until written or refused: only a page walk's Accessed and Dirty
 * bits change an entry behind the table's lock, each once, so a few
 * tries always do.
 */
static bool emulate(struct cpu_regs *regs, const struct ptwr_insn *in,
                    unsigned long table, unsigned int level, unsigned int idx,
                    unsigned int off)
{
    enum ptwr_try t;
    bool first = true;

    while ( (t = emulate_try(regs, in, table, level, idx, off, first)) ==
            PTWR_AGAIN )
    {
        perfc_incr(ptwr_retries);
        first = false;
    }
    return t == PTWR_DONE;
}

/*
 * ptwr-l2=<bool> (pvshim's, off by default): the guest kernel's writes
 * to its L1 and L2 page tables are emulated, whether or not it enabled
 * VMASST_TYPE_writable_pagetables.  Xen emulates L1 writes only, and
 * only with the assist ("Page-directory entries cannot be written",
 * xen.h); Debian's GNU Mach Xen kernels (i386 and amd64) write their
 * page directory directly all the same (i386at_init(), keeping BIOS
 * memory mapped), so they need this to boot here.  Every entry still
 * goes through mod_entry()'s validation, as an mmu_update of it would.
 */
static bool __read_mostly opt_ptwr_l2;
boolean_param("ptwr-l2", opt_ptwr_l2);

/*
 * Without ptwr-l2, a kernel's store to its L2 is its own #PF, as on Xen;
 * the first one is logged, naming the option (GNU Mach's kernels end
 * there otherwise with no word on the console: theirs isn't up yet).
 */
static void l2_write_hint(unsigned long rip, unsigned long addr)
{
    static bool said;

    if ( said )
        return;
    said = true;
    printk(XENLOG_WARNING "d1: kernel write to its L2 page table at %lx "
           "(rip %lx): a #PF for the guest, as on Xen; ptwr-l2 would "
           "emulate it\n", addr, rip);
}

bool __hot_text pv_ptwr_fault(struct cpu_regs *regs, unsigned long addr,
                              uint32_t ec)
{
    struct vcpu *v = current_vcpu();
    unsigned long l1, table, seg_base = 0;
    struct page_info *pg;
    bool l2 = opt_ptwr_l2, done;
    unsigned int idx, off, type;
    struct ptwr_insn in;
    uint8_t bytes[15];
    uint64_t pte, gpr[16];          /* only those in used[] are set */
    int8_t used[3];
    size_t n;
    unsigned int i;

    if ( !v->kernel_mode ||
         (ec & (PFEC_page_present | PFEC_write_access | PFEC_reserved_bit |
                PFEC_insn_fetch)) != (PFEC_page_present | PFEC_write_access) )
        return false;

    /* The faulting address must be a read-only mapping of an L1 table. */
    if ( guest_l1_slot(v, addr, &l1, &idx) )
        return false;
    pte = ((uint64_t *)__va(l1 << PAGE_SHIFT))[idx];
    table = (pte & PADDR_MASK) >> PAGE_SHIFT;
    if ( !(pte & _PAGE_PRESENT) || (pte & _PAGE_RW) || !mfn_to_page(table) )
        return false;
    type = page_type(mfn_to_page(table));
    if ( type_level(type) == 2 )
    {
        if ( !l2 )
        {
            l2_write_hint(regs->rip, addr);
            return false;
        }
    }
    else if ( type != PGT_L1 ||
              (!l2 &&
               !(dom.vm_assist & (1UL << VMASST_TYPE_writable_pagetables))) )
        return false;

    n = fetch(regs->rip, bytes);
    if ( !n || (dom.compat ? ptwr_decode_compat(bytes, n, &in)
                           : ptwr_decode(bytes, n, &in)) )
        return false;

    /*
     * It must be this instruction's store that faulted, aligned.  FS and
     * GS have their base in the MSRs, also in compatibility mode; a
     * 32-bit guest's other segments are taken as flat (every PV kernel's
     * are; if not, the address won't match and the #PF is the guest's).
     */
    used[0] = in.mem.base;              /* the registers it may read */
    used[1] = in.mem.index;
    used[2] = in.src_reg;
    for ( i = 0; i < ARRAY_SIZE(used); i++ )
        if ( used[i] != PTWR_NO_REG )
            gpr[used[i] & 15] = *gpr_slot(regs, used[i]);
    switch ( ptwr_segment(&in, dom.compat) )
    {
    case PTWR_SEG_FS:
        seg_base = rdmsr(MSR_FS_BASE);
        break;
    case PTWR_SEG_GS:
        seg_base = rdmsr(MSR_GS_BASE);
        break;
    }
    if ( ptwr_linear_address(&in, gpr, regs->rip, seg_base, dom.compat) !=
         addr || (addr & (in.size - 1)) )
        return false;

    /*
     * The entry's read, the decision and the write, under the table's
     * page lock: atomic to every vCPU, as the instruction would have been.
     * The table must still be what was found above.
     */
    off = addr & 7;
    if ( !(pg = pv_lock_table(table, type)) )
        return false;
    done = emulate(regs, &in, table, type_level(type),
                   (addr & (PAGE_SIZE - 1)) / 8, off);
    pv_unlock_table(pg);
    return done;
}
