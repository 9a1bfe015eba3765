/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writable page tables (VMASST_TYPE_writable_pagetables): with the assist
 * on, a plain store, xchg or cmpxchg to one of the guest's own (read-only
 * mapped) L1 tables is validated and applied for it, as Xen's ptwr does;
 * an entry that would break the rules, an instruction the emulator
 * doesn't know, or the assist off, leave the guest its #PF.
 */
#include "guest.h"
#include "mm.h"

#ifdef __x86_64__
#define ASM_SFX     "q"                 /* an entry's width */
#else
#define ASM_SFX     "l"
#endif

const char test_title[] = "Writable page tables: emulated L1 writes";

static uint8_t target[PAGE_SIZE] __page_aligned;

#ifdef __x86_64__
static exinfo_t store(volatile uint64_t *p, uint64_t v)
{
    return TRY("movq %[v], (%[p])", [p] "r" (p), [v] "r" (v));
}

static exinfo_t xchg(volatile uint64_t *p, uint64_t *v)
{
    return probe_xchg(p, v);
}

/* cmpxchg: true if it stored; *expect gets what was there. */
static bool cas(volatile uint64_t *p, uint64_t *expect, uint64_t v)
{
    bool ok;

    asm volatile ( "lock cmpxchg %[v], (%[p]); setz %[ok]"
                   : "+a" (*expect), [ok] "=q" (ok)
                   : [p] "r" (p), [v] "r" (v) : "memory" );
    return ok;
}
#else
/*
 * A 32-bit guest writes a whole PAE entry with cmpxchg8b, as Linux's
 * set_64bit(): a loop until it stored, %eax the exinfo_t if it faulted.
 * (Xen's emulator takes no SSE store for a page table.)  *old gets what
 * was there.
 */
static exinfo_t swap8(volatile uint64_t *p, uint64_t v, uint64_t *old)
{
    uint32_t lo = p[0], hi = p[0] >> 32, old_lo = 0;

    asm volatile ( "1: lock cmpxchg8b (%[p])\n\t"
                   "jnz 1b\n\t"
                   "mov %%eax, %[old]\n\t"
                   "xor %%eax, %%eax\n"
                   "2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (lo), "+d" (hi), [old] "+r" (old_lo)
                   : [p] "S" (p), "b" ((uint32_t)v), "c" ((uint32_t)(v >> 32))
                   : "memory" );
    *old = ((uint64_t)hi << 32) | old_lo;
    return lo;
}

static exinfo_t store(volatile uint64_t *p, uint64_t v)
{
    uint64_t old;

    return swap8(p, v, &old);
}

static exinfo_t xchg(volatile uint64_t *p, uint64_t *v)
{
    uint64_t old;
    exinfo_t ex = swap8(p, *v, &old);

    if ( !ex )
        *v = old;
    return ex;
}

/* cmpxchg8b: true if it stored; *expect gets what was there. */
static bool cas(volatile uint64_t *p, uint64_t *expect, uint64_t v)
{
    uint32_t lo = *expect, hi = *expect >> 32;
    bool ok;

    asm volatile ( "lock cmpxchg8b (%[p]); setz %[ok]"
                   : "+a" (lo), "+d" (hi), [ok] "=q" (ok)
                   : [p] "S" (p), "b" ((uint32_t)v), "c" ((uint32_t)(v >> 32))
                   : "memory" );
    *expect = ((uint64_t)hi << 32) | lo;
    return ok;
}
#endif

static long vm_assist(unsigned int cmd)
{
    return hypercall_vm_assist(cmd, VMASST_TYPE_writable_pagetables);
}

static void check_target_reads(const char *what, uint8_t byte)
{
    invlpg_local((unsigned long)target);
    if ( target[0] != byte || target[PAGE_SIZE - 1] != byte )
        test_fail("%s: reads %#x, expected %#x", what, target[0], byte);
}

void test_main(void)
{
    volatile uint64_t *e = (volatile uint64_t *)pt_entry(
        (unsigned long)target, 1);
    unsigned long a = alloc_frame(), b = alloc_frame();
    uint64_t orig, v, seen;
    exinfo_t ex;

    if ( !e || a == INVALID_MFN || b == INVALID_MFN )
        return test_error("no L1 entry or no free frames");
    orig = *e;
    frame_fill(a, 0xaa);
    frame_fill(b, 0xbb);

    /* Off: the store is the guest's #PF (write to a present page). */
    ex = store(e, pte_make(a, PTE_RW));
    if ( exinfo_vector(ex) != X86_EXC_PF || !(exinfo_error(ex) & 3) )
        test_fail("store with the assist off: exinfo %#lx", ex);

    check_rc(vm_assist(VMASST_CMD_enable), 0);

    check_rc(store(e, pte_make(a, PTE_RW)), 0);
    check_target_reads("after mov", 0xaa);

    v = pte_make(b, PTE_RW);
    check_rc(xchg(e, &v), 0);
    if ( pte_mfn(v) != a )
        test_fail("xchg gave back mfn %#lx, expected %#lx", pte_mfn(v), a);
    check_target_reads("after xchg", 0xbb);

    seen = *e;
    if ( !cas(e, &seen, pte_make(a, PTE_RW)) )
        test_fail("cmpxchg with the right value did not store");
    check_target_reads("after cmpxchg", 0xaa);
    seen = pte_make(b, PTE_RW);
    if ( cas(e, &seen, pte_make(b, PTE_RW)) )
        test_fail("cmpxchg with a stale value stored");
    else if ( pte_mfn(seen) != a )
        test_fail("failed cmpxchg gave back mfn %#lx", pte_mfn(seen));
    check_target_reads("after the failed cmpxchg", 0xaa);

    /* What validation refuses stays the guest's #PF, nothing changed. */
    ex = store(e, pte_make(hypervisor_frame(), PTE_RW));
    if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("mapping a hypervisor frame: exinfo %#lx", ex);
    ex = store(e, pte_make(virt_to_mfn((const void *)e), PTE_RW));
    if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("mapping the L1 itself writable: exinfo %#lx", ex);
    ex = store(e, pte_make(a, PTE_RW | _PAGE_PSE | _PAGE_PCD));
    if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("a cache-attribute entry: exinfo %#lx", ex);
    check_target_reads("after refused stores", 0xaa);

    /* An instruction the emulator doesn't do: the guest's #PF. */
    {
        exinfo_t ex2 = 0;

        asm volatile ( "1: add" ASM_SFX " $0, (%[p]); 2:\n\t"
                       ASM_EXTABLE(1b, 2b)
                       : "+a" (ex2) : [p] "r" (e) : "memory" );
        if ( exinfo_vector(ex2) != X86_EXC_PF )
            test_fail("add to a page table: exinfo %#lx", ex2);
    }

    check_rc(store(e, orig), 0);
    invlpg_local((unsigned long)target);
    check_rc(vm_assist(VMASST_CMD_disable), 0);
    ex = store(e, orig);
    if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("store with the assist off again: exinfo %#lx", ex);
    test_success();
}
