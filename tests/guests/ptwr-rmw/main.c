/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writable page tables: the read-modify-write forms Linux uses on PTEs
 * (lock and/or/xor, lock bts/btr/btc; clear_bit() in ptep_set_wrprotect(),
 * test_and_clear_bit() in ptep_test_and_clear_young()), in every operand
 * size and source form, on a live L1 entry.  Each is applied as the
 * instruction would, flags included, when the new entry passes
 * validation; otherwise, or misaligned, or with the assist off, it is the
 * guest's #PF and the entry is unchanged.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "Writable page tables: lock and/or/xor/bts/btr/btc";

#define CF      0x001UL
#define PF      0x004UL
#define ZF      0x040UL
#define SF      0x080UL
#define OF      0x800UL
#define ARITH   (CF | PF | ZF | SF | OF)
/* The flags going in: all set, so every one a form clears shows. */
#define FLAGS_IN (0x202UL | ARITH)

static uint8_t target[PAGE_SIZE] __page_aligned;
static volatile uint64_t *e;            /* the L1 entry that maps target */

struct res {
    exinfo_t ex;
    unsigned long flags;
};

/* One instruction on the entry (%[p]), with FLAGS_IN before it. */
#define RMW(insn, operands...) ({                                           \
    struct res r_ = { 0, FLAGS_IN };                                        \
    asm volatile ( "push %[f]; popf\n\t"                                    \
                   "1: " insn "\n"                                          \
                   "2:\tpushf; pop %[f]\n\t"                                \
                   ASM_EXTABLE(1b, 2b)                                      \
                   : "+a" (r_.ex), [f] "+r" (r_.flags)                      \
                   : [p] "r" (e), ##operands : "memory", "cc" );            \
    r_;                                                                     \
})

/*
 * Write the whole entry: a movq, or for a 32-bit guest a cmpxchg8b (as
 * Linux's PAE set_64bit()), retried until it stores; 0 or the fault.
 */
static exinfo_t store_entry(uint64_t v)
{
#ifdef __x86_64__
    return TRY("movq %[v], (%[p])", [p] "r" (e), [v] "r" (v));
#else
    uint32_t lo = e[0], hi = e[0] >> 32;

    asm volatile ( "1: lock cmpxchg8b (%[p])\n\t"
                   "jnz 1b\n\t"
                   "xor %%eax, %%eax\n"
                   "2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (lo), "+d" (hi)
                   : [p] "S" (e), "b" ((uint32_t)v), "c" ((uint32_t)(v >> 32))
                   : "memory" );
    return lo;
#endif
}

/* The entry without what the hypervisor adds (Accessed is ours here). */
static uint64_t entry(void)
{
    return *e & ~(PTE_HV_BITS & ~_PAGE_ACCESSED);
}

/* It went through: the entry is now @want, flags & @fmask are @fwant. */
static void ok(const char *what, struct res r, uint64_t want,
               uint64_t fmask, uint64_t fwant)
{
    if ( r.ex )
        return test_fail("%s: exinfo %#lx", what, r.ex);
    if ( entry() != want )
        test_fail("%s: entry %#llx, expected %#llx", what,
                  (unsigned long long)entry(), (unsigned long long)want);
    if ( (r.flags & fmask) != fwant )
        test_fail("%s: flags %#llx, expected %#llx in %#llx", what,
                  (unsigned long long)(r.flags & fmask),
                  (unsigned long long)fwant, (unsigned long long)fmask);
    invlpg_local((unsigned long)target);
}

/*
 * OR/AND/XOR: CF and OF clear, ZF SF PF from the result, the @size bytes
 * at byte @off of the entry as it is now (with the bits the hypervisor
 * added, which the guest sees too).
 */
static void ok_logic(const char *what, struct res r, uint64_t want,
                     unsigned int size, unsigned int off)
{
    uint64_t v = *e >> (off * 8), f = 0;

    if ( size < 8 )
        v &= (UINT64_C(1) << (size * 8)) - 1;
    if ( !v )
        f |= ZF;
    if ( (v >> (size * 8 - 1)) & 1 )
        f |= SF;
    if ( !__builtin_parity(v & 0xff) )
        f |= PF;
    ok(what, r, want, ARITH, f);
}

/* BTS/BTR/BTC: CF the old bit, ZF unaffected (set going in). */
static void ok_bt(const char *what, struct res r, uint64_t want, bool was)
{
    ok(what, r, want, CF | ZF, was ? CF | ZF : ZF);
}

/* It was the guest's #PF, and the entry did not change. */
static void refused(const char *what, struct res r, uint64_t before)
{
    if ( exinfo_vector(r.ex) != X86_EXC_PF )
        test_fail("%s: exinfo %#lx, expected #PF", what, r.ex);
    if ( entry() != before )
        test_fail("%s: entry %#llx, was %#llx", what,
                  (unsigned long long)entry(), (unsigned long long)before);
}

static void writable(const char *what, bool want)
{
    invlpg_local((unsigned long)target);
    if ( !probe_write(target + 8) != want )
        test_fail("%s: target %swritable", what, want ? "not " : "");
}

/*
 * Linux's own: clear_bit(RW), set_bit(RW), test_and_clear_bit(A) (on a
 * long: a quadword on x86-64, a doubleword on i386).
 */
#ifdef __x86_64__
#define BT_LONG(op) "lock " op "q"
#else
#define BT_LONG(op) "lock " op "l"
#endif
static void linux_forms(uint64_t rw)
{
    uint64_t ro = rw & ~_PAGE_RW;

    ok_logic("lock andb $0xfd", RMW("lock andb $0xfd, (%[p])"), ro, 1, 0);
    writable("after lock andb", false);
    ok_logic("lock orb $0x2", RMW("lock orb $0x2, (%[p])"), rw, 1, 0);
    writable("after lock orb", true);

    ok_bt(BT_LONG("btr") " $5 (young)", RMW(BT_LONG("btr") " $5, (%[p])"),
          rw & ~_PAGE_ACCESSED, true);
    ok_bt(BT_LONG("btr") " $5 again", RMW(BT_LONG("btr") " $5, (%[p])"),
          rw & ~_PAGE_ACCESSED, false);
    ok_bt(BT_LONG("bts") " $5", RMW(BT_LONG("bts") " $5, (%[p])"), rw,
          false);
    ok_bt(BT_LONG("btc") " $6", RMW(BT_LONG("btc") " $6, (%[p])"),
          rw & ~_PAGE_DIRTY, true);
    ok_logic("lock xorb $0x40", RMW("lock xorb $0x40, (%[p])"), rw, 1, 0);
}

/* Every size and source form of the logic ops. */
static void logic_sizes(uint64_t rw)
{
    uint64_t ro = rw & ~_PAGE_RW, avail = 0x200;

    ok_logic("lock andb %cl", RMW("lock andb %%cl, (%[p])", "c" (0xfdUL)),
             ro, 1, 0);
    ok_logic("lock orb %ch", RMW("lock orb %%ch, (%[p])", "c" (0x200UL)),
             rw, 1, 0);
    ok_logic("andb $0xfd (no lock)", RMW("andb $0xfd, (%[p])"), ro, 1, 0);
#ifdef __x86_64__
    ok_logic("lock xorb %dil", RMW("lock xorb %%dil, (%[p])", "D" (2UL)),
             rw, 1, 0);
#else
    ok_logic("lock xorb %dl", RMW("lock xorb %%dl, (%[p])", "d" (2UL)),
             rw, 1, 0);
#endif

    ok_logic("lock andw $imm8", RMW("lock andw $0xfffd, (%[p])"), ro, 2, 0);
    ok_logic("lock orw $imm16", RMW("lock orw $0x202, (%[p])"),
             rw | avail, 2, 0);
    ok_logic("lock andw %cx", RMW("lock andw %%cx, (%[p])", "c" (0xfdffUL)),
             rw, 2, 0);
    ok_logic("lock xorw %cx", RMW("lock xorw %%cx, (%[p])", "c" (2UL)),
             ro, 2, 0);

    ok_logic("lock orl $imm8", RMW("lock orl $0x2, (%[p])"), rw, 4, 0);
    ok_logic("lock andl $imm8", RMW("lock andl $0xfffffffd, (%[p])"), ro,
             4, 0);
    ok_logic("lock orl %ecx", RMW("lock orl %%ecx, (%[p])", "c" (2UL)), rw,
             4, 0);
    ok_logic("lock xorl $imm32", RMW("lock xorl $0xe02, (%[p])"),
             ro | 0xe00, 4, 0);
    ok_logic("lock xorl $imm32 back", RMW("lock xorl $0xe02, (%[p])"), rw,
             4, 0);

#ifdef __x86_64__
    ok_logic("lock andq $imm8", RMW("lock andq $-3, (%[p])"), ro, 8, 0);
    ok_logic("lock orq %rcx", RMW("lock orq %%rcx, (%[p])", "c" (2UL)), rw,
             8, 0);
    ok_logic("lock xorq %reg, 0",
             RMW("lock xorq %[z], (%[p])", [z] "r" (0UL)), rw, 8, 0);
    ok_logic("lock andq $imm32", RMW("lock andq $0x7fffffff, (%[p])"),
             rw & 0x7fffffff, 8, 0);
#else
    /* The high half alone (NX and the frame's upper bits): 0 here. */
    ok_logic("lock xorl %reg, 4(e)",
             RMW("lock xorl %[z], 4(%[p])", [z] "r" (0UL)), rw, 4, 4);
#endif
}

/* Every size and source form of the bit ops. */
static void bit_sizes(uint64_t rw)
{
    uint64_t ro = rw & ~_PAGE_RW;

    ok_bt("lock btrw $1", RMW("lock btrw $1, (%[p])"), ro, true);
    ok_bt("lock btsw %cx", RMW("lock btsw %%cx, (%[p])", "c" (1UL)), rw,
          false);
    ok_bt("lock btcl $1", RMW("lock btcl $1, (%[p])"), ro, true);
    ok_bt("btsl %ecx (no lock)", RMW("btsl %%ecx, (%[p])", "c" (1UL)), rw,
          false);
#ifdef __x86_64__
    ok_bt("lock btr %rcx", RMW("lock btr %%rcx, (%[p])", "c" (1UL)), ro,
          true);
    /* A register bit offset reaches past the operand, both ways. */
    ok_bt("lock bts %rcx, -8(e), bit 65",
          RMW("lock bts %%rcx, -8(%[p])", "c" (65UL)), rw, false);
    ok_bt("lock btc %rcx, 8(e), bit -63",
          RMW("lock btc %%rcx, 8(%[p])", "c" (-63UL)), ro, true);
#else
    ok_bt("lock btr %ecx", RMW("lock btr %%ecx, (%[p])", "c" (1UL)), ro,
          true);
    /* A register bit offset reaches past the operand, both ways. */
    ok_bt("lock bts %ecx, -8(e), bit 65",
          RMW("lock btsl %%ecx, -8(%[p])", "c" (65UL)), rw, false);
    ok_bt("lock btc %ecx, 8(e), bit -63",
          RMW("lock btcl %%ecx, 8(%[p])", "c" (-63UL)), ro, true);
#endif
    ok_bt("lock btsl %ecx, -4(e), bit 33",
          RMW("lock btsl %%ecx, -4(%[p])", "c" (33UL)), rw, false);
    ok_bt("lock btrw %cx, 2(e), bit -15",
          RMW("lock btrw %%cx, 2(%[p])", "c" (-15UL)), ro, true);
    /* An immediate stays in the operand: 65 is bit 1 (33, for a long). */
#ifdef __x86_64__
    ok_bt("lock btsq $65", RMW("lock btsq $65, (%[p])"), rw, false);
#else
    ok_bt("lock btsl $33", RMW("lock btsl $33, (%[p])"), rw, false);
#endif
}

#ifdef __x86_64__
#define XOR_L       "lock xorq"
#define OR_L        "lock orq"
#define CX          "rcx"
#else
#define XOR_L       "lock xorl"
#define OR_L        "lock orl"
#define CX          "ecx"
#endif

/* Other bytes of the entry; results of 0; a new frame. */
static void other_bytes(uint64_t rw, unsigned long b)
{
    ok_logic("lock andb $0x7f, 7(e)", RMW("lock andb $0x7f, 7(%[p])"), rw,
             1, 7);
    ok_logic("lock orl $0, 4(e)", RMW("lock orl $0, 4(%[p])"), rw, 4, 4);
    if ( cpu_has_nx() )
    {
        ok_logic("lock orb $0x80, 7(e): NX", RMW("lock orb $0x80, 7(%[p])"),
                 rw | _PAGE_NX, 1, 7);
#ifdef __x86_64__
        ok_bt("lock btrq $63", RMW("lock btrq $63, (%[p])"), rw, true);
#else
        ok_bt("lock btrl $31, 4(e)", RMW("lock btrl $31, 4(%[p])"), rw,
              true);
#endif
    }

    /*
     * A frame change: the references move as for any write.  (A 32-bit
     * guest's frames are below 4 GiB here: the low half says it all.)
     */
    ok_logic(XOR_L " %" CX ": to frame b",
             RMW(XOR_L " %%" CX ", (%[p])",
                 "c" ((pte_mfn(rw) ^ b) << PAGE_SHIFT)),
             pte_make(b, PTE_RW), sizeof(long), 0);
    if ( target[0] != 0xbb )
        test_fail("after the frame change: reads %#x", target[0]);
    ok_logic(XOR_L " %" CX ": back",
             RMW(XOR_L " %%" CX ", (%[p])",
                 "c" ((pte_mfn(rw) ^ b) << PAGE_SHIFT)), rw, sizeof(long),
             0);
    if ( target[0] != 0xaa )
        test_fail("after the frame change back: reads %#x", target[0]);
}

static void refusals(uint64_t rw, unsigned long l1)
{
    uint64_t before;
    struct res r;

    /* Misaligned for its size: the #PF, as Xen's ptwr. */
    before = entry();
    refused("lock orw at 1(e)", RMW("lock orw $2, 1(%[p])"), before);
    refused("lock btsl at 2(e)", RMW("lock btsl %%ecx, 2(%[p])", "c" (1UL)),
            before);
    /* Mapping a hypervisor frame, or a cache attribute: refused. */
    r = RMW(XOR_L " %%" CX ", (%[p])",
            "c" ((pte_mfn(rw) ^ hypervisor_frame()) << PAGE_SHIFT));
    refused(XOR_L " to a hypervisor frame", r, before);
    refused("lock orb $0x10 (PCD)", RMW("lock orb $0x10, (%[p])"), before);
    refused(BT_LONG("bts") " $4 (PCD)", RMW(BT_LONG("bts") " $4, (%[p])"),
            before);

    /* The L1 itself, read-only; making it writable is refused. */
    check_rc(store_entry(pte_make(l1, PTE_RO)), 0);
    before = entry();
    refused("lock orb $2 on a page table", RMW("lock orb $0x2, (%[p])"),
            before);
    refused(BT_LONG("bts") " $1 on a page table",
            RMW(BT_LONG("bts") " $1, (%[p])"), before);
    refused("lock bts %" CX " on a page table",
            RMW("lock bts %%" CX ", (%[p])", "c" (1UL)), before);
    refused(OR_L " on a page table",
            RMW(OR_L " %%" CX ", (%[p])", "c" (2UL)), before);
    /* Clearing a bit of it is fine. */
    ok_bt(BT_LONG("btr") " $5 on a page table's entry",
          RMW(BT_LONG("btr") " $5, (%[p])"),
          pte_make(l1, PTE_RO) & ~_PAGE_ACCESSED, true);
}

void test_main(void)
{
    unsigned long a = alloc_frame(), b = alloc_frame(), l1;
    uint64_t orig, rw;

    e = (volatile uint64_t *)pt_entry((unsigned long)target, 1);
    if ( !e || a == INVALID_MFN || b == INVALID_MFN )
        return test_error("no L1 entry or no free frames");
    orig = *e;
    l1 = virt_to_mfn((const void *)e);
    frame_fill(a, 0xaa);
    frame_fill(b, 0xbb);
    rw = pte_make(a, PTE_RW);

    /* Off: the guest's #PF. */
    refused("lock andb with the assist off", RMW("lock andb $0xfd, (%[p])"),
            entry());

    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                       VMASST_TYPE_writable_pagetables, 0, 0, 0), 0);
    check_rc(store_entry(rw), 0);
    invlpg_local((unsigned long)target);
    if ( entry() != rw )
        return test_fail("set-up: entry %#llx, expected %#llx",
                         (unsigned long long)entry(),
                         (unsigned long long)rw);

    linux_forms(rw);
    logic_sizes(rw);
    bit_sizes(rw);
    other_bytes(rw, b);
    if ( target[0] != 0xaa )
        test_fail("target reads %#x after it all", target[0]);
    refusals(rw, l1);

    check_rc(store_entry(orig), 0);
    invlpg_local((unsigned long)target);
    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_disable,
                       VMASST_TYPE_writable_pagetables, 0, 0, 0), 0);
    test_success();
}
