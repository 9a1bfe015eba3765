/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bad arguments to the PV MMU hypercalls, answered as Xen's arch/x86/mm.c
 * answers them, the guest and the shim carrying on:
 *
 *  - bad pointers in every argument: the request list (-EFAULT; *pdone
 *    untouched if guest_handle_okay() refuses the list, else the entries
 *    done), *pdone (ignored: copy_to_guest()'s result isn't checked), a
 *    vcpumask (-EINVAL from mmuext_op, -EFAULT from update_va_mapping),
 *    the va of update_va_mapping and SET_LDT (-EINVAL);
 *  - overlong batches: a count far past the end of mapped memory stops
 *    with -EFAULT at the first unreadable entry; a count with bit 31 set
 *    (MMU_UPDATE_PREEMPTED) resumes a continuation: *pdone counts on;
 *  - entry bits (the L<N>_DISALLOW_MASKs): PAT/PCD/PWT, PSE at L2/L3 and
 *    bit 7 at L4, _PAGE_GLOBAL above L1, NX only if the CPU has it (and
 *    then honoured), the available bits allowed, non-present entries
 *    taken as they are.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "PV MMU: bad pointers, overlong batches, entry bits";

static uint8_t win[2][PAGE_SIZE] __page_aligned;
#define W(i)        ((unsigned long)win[i])

#define X           201                 /* a free L4 slot (64-bit) */
static unsigned long data;

static void test_bad_pointers(void)
{
    void *const bad[] = { BAD_UNMAPPED, BAD_NONCANONICAL, BAD_XEN };
    mmu_update_t req = { pt_entry_maddr(W(0), 1), pte_make(data, PTE_RO) };
    mmuext_op_t op = { .cmd = MMUEXT_TLB_FLUSH_MULTI };
    multicall_entry_t mc = {
        .op = __HYPERVISOR_mmu_update,
        .args = { (unsigned long)BAD_UNMAPPED, 1, 0, DOMID_SELF },
    };

    for ( unsigned int i = 0; i < ARRAY_SIZE(bad); i++ )
    {
        unsigned long p = (unsigned long)bad[i];

        check_rc(hypercall_mmu_update(bad[i], 1, NULL, DOMID_SELF),
                 -XEN_EFAULT);
        check_rc(hypercall_mmu_update(&req, 1, bad[i], DOMID_SELF), 0);
        check_rc(hypercall_mmuext_op(bad[i], 1, NULL, DOMID_SELF),
                 -XEN_EFAULT);
        set_xen_guest_handle(op.arg2.vcpumask, bad[i]);
        check_rc(hypercall_mmuext_op(&op, 1, bad[i], DOMID_SELF),
                 -XEN_EINVAL);
        check_rc(hypercall_update_va_mapping(p, pte_make(data, PTE_RO), 0),
                 -XEN_EINVAL);
        check_rc(hypercall_update_va_mapping_otherdomain(
                     p, pte_make(data, PTE_RO), 0, DOMID_SELF), -XEN_EINVAL);
        check_rc(hypercall_update_va_mapping(W(1), pte_make(data, PTE_RO),
                                             UVMF_TLB_FLUSH | p), -XEN_EFAULT);
        check_rc(hypercall_update_va_mapping_otherdomain(
                     W(1), pte_make(data, PTE_RO), UVMF_INVLPG | p,
                     DOMID_SELF), -XEN_EFAULT);
    }
    check_rc(invlpg_local(W(0)), 0);
    check_rc(peek(W(0)), UINT64_C(0x4242424242424242));    /* req done */

    check_rc(hypercall_multicall(&mc, 1), 0);
    check_rc(mc.result, -XEN_EFAULT);
    check_rc(remap_initial(W(0)), 0);
    check_rc(remap_initial(W(1)), 0);
}

/*
 * Two requests at the end of W(0), with W(1) unmapped behind them: for
 * mmu_update, clearing W(1)'s (already clear) L1 entry; for mmuext_op,
 * local flushes.
 */
static mmu_update_t *last_two_reqs(void)
{
    mmu_update_t *reqs = (void *)(W(1) - 2 * sizeof(*reqs));

    reqs[0] = reqs[1] = (mmu_update_t){ pt_entry_maddr(W(1), 1), 0 };
    return reqs;
}

static mmuext_op_t *last_two_ops(void)
{
    mmuext_op_t *ops = (void *)(W(1) - 2 * sizeof(*ops));

    ops[0] = ops[1] = (mmuext_op_t){ .cmd = MMUEXT_TLB_FLUSH_LOCAL };
    return ops;
}

static void test_overlong(void)
{
    const unsigned int counts[] = { 3, 0x10000, 0x7fffffff };
    unsigned int done;

    check_rc(unmap_va(W(1)), 0);
    for ( unsigned int i = 0; i < ARRAY_SIZE(counts); i++ )
    {
        done = 0xdead;
        check_rc(hypercall_mmu_update(last_two_reqs(), counts[i], &done,
                                      DOMID_SELF), -XEN_EFAULT);
        check_rc(done, 2);
        done = 0xdead;
        check_rc(hypercall_mmuext_op(last_two_ops(), counts[i], &done,
                                     DOMID_SELF), -XEN_EFAULT);
        check_rc(done, 2);
    }

    /* MMU_UPDATE_PREEMPTED: a continuation; *pdone holds what's done. */
    done = 5;
    check_rc(hypercall_mmu_update(last_two_reqs(), 0x80000001u, &done,
                                  DOMID_SELF), 0);
    check_rc(done, 6);
    check_rc(hypercall_mmuext_op(last_two_ops(), 0x80000002u, &done,
                                 DOMID_SELF), 0);
    check_rc(done, 8);
    check_rc(remap_initial(W(1)), 0);
}

/*
 * Run `ret` at @va, which must be W(1): 0, or the fault.  The fix-up pops
 * the return address.  Not inlined: the fix-up table may name W(1) once.
 */
static exinfo_t __attribute__((noinline)) exec_at(unsigned long va)
{
    exinfo_t ex = 0;

    asm volatile ( "call *%[va]\n\t"
                   "jmp 2f\n\t"
                   "1: add %[ret], %" ASM_SP "\n\t"
                   "2:\n\t"
                   ".pushsection .ex_table, \"a\"\n\t"
                   ".balign " ASM_PTR_ALIGN "\n\t"
                   ASM_PTR " %c[w], 1b\n\t"
                   ".popsection"
                   : "+a" (ex)
                   : [va] "r" (va), [w] "i" (win[1]),
                     [ret] "i" (sizeof(void *))
                   : "memory" );
    return ex;
}

static void test_l1_bits(void)
{
    const uint64_t bad[] = { _PAGE_PAT, _PAGE_PCD, _PAGE_PWT };
    const uint64_t junk = UINT64_C(0xfff0000000123ffe);    /* not present */
    unsigned long code = alloc_frame();
    const uint8_t ret = 0xc3;
    exinfo_t ex;

    for ( unsigned int i = 0; i < ARRAY_SIZE(bad); i++ )
        check_rc(map_frame_at(W(0), data, PTE_RO | bad[i]), -XEN_EINVAL);
    check_rc(map_frame_at(W(0), data, PTE_RO | 0xe00), 0);     /* avail */
    check_rc(map_frame_at(W(0), data, PTE_RO | _PAGE_GLOBAL), 0);
    check_rc(peek(W(0)), UINT64_C(0x4242424242424242));
    check_rc(hypercall_update_va_mapping(W(0), junk, UVMF_INVLPG), 0);
    check_rc(*pt_entry(W(0), 1), junk);
    check_rc(remap_initial(W(0)), 0);

    /* NX: refused where the CPU has none, else honoured. */
    frame_write(code, 0, &ret, 1);
    check_rc(map_frame_at(W(1), code, PTE_RO), 0);
    check_rc(exec_at(W(1)), 0);
    if ( !cpu_has_nx() )
        check_rc(map_frame_at(W(1), code, PTE_RO | _PAGE_NX), -XEN_EINVAL);
    else
    {
        check_rc(map_frame_at(W(1), code, PTE_RO | _PAGE_NX), 0);
        ex = exec_at(W(1));
        if ( ex != EXINFO(X86_EXC_PF, 0x11) )
            test_fail("running NX code gave %#lx, expected #PF(0x11)",
                      (unsigned long)ex);
    }
    check_rc(remap_initial(W(1)), 0);
}

/*
 * Entry @e with bits @bits at L<level>, where @ptr is; then, if it was
 * refused as it should be, the plain entry works and is cleared again.
 * NX is allowed where the CPU has it, but in a PAE L3 (Xen's compat
 * l3_disallow_mask()).
 */
static void check_table_bits(unsigned int level, uint64_t ptr, uint64_t e,
                             const uint64_t *bits, unsigned int nr)
{
    for ( unsigned int i = 0; i < nr; i++ )
    {
        long rc = mmu_update1(ptr, e | bits[i]);

        if ( rc != -XEN_EINVAL )
            test_fail("L%u entry with bits %#llx: %ld, expected -EINVAL",
                      level, (unsigned long long)bits[i], rc);
    }
    check_rc(mmu_update1(ptr, e), 0);
    if ( cpu_has_nx() )
        check_rc(mmu_update1(ptr, e | _PAGE_NX),
                 PT_LEVELS == 3 && level == 3 ? -XEN_EINVAL : 0);
    check_rc(mmu_update1(ptr, UINT64_C(0xfffffffffffffffe)),
             0);                                        /* not present */
    check_rc(mmu_update1(ptr, 0), 0);
}

static void test_table_bits(void)
{
    unsigned long hole = (initial_mapping_end() + (1UL << 21) - 1) &
                         ~((1UL << 21) - 1);
    unsigned long l1 = new_table(1, 0, 0), l2 = new_table(2, 0, 0);
#ifdef __x86_64__
    unsigned long l3 = new_table(3, 0, 0);
    const uint64_t l4_bits[] = {
        _PAGE_PSE, _PAGE_GLOBAL, _PAGE_PCD, _PAGE_PWT,
    };
#endif
    const uint64_t l2_bits[] = {
        _PAGE_PSE, _PAGE_GLOBAL, _PAGE_PCD, _PAGE_PWT,
    };

    if ( !cpu_has_nx() )
        check_rc(mmu_update1(pt_entry_maddr(hole, 2),
                             pte_make(l1, PTE_TABLE | _PAGE_NX)),
                 -XEN_EINVAL);
    check_table_bits(2, pt_entry_maddr(hole, 2), pte_make(l1, PTE_TABLE),
                     l2_bits, ARRAY_SIZE(l2_bits));
    check_table_bits(3, pt_entry_maddr(1UL << 30, 3),
                     pte_make(l2, PTE_TABLE), l2_bits, ARRAY_SIZE(l2_bits));
#ifdef __x86_64__
    check_table_bits(4, ((uint64_t)pt_base_mfn() << PAGE_SHIFT) + X * 8,
                     pte_make(l3, PTE_TABLE), l4_bits, ARRAY_SIZE(l4_bits));
#endif

    check_rc(tlb_flush_local(), 0);
#ifdef __x86_64__
    check_rc(unpin_table(l3), 0);
#endif
    check_rc(unpin_table(l2), 0);
    check_rc(unpin_table(l1), 0);
}

void test_main(void)
{
    data = alloc_frame();
    frame_fill(data, 0x42);
    if ( PT_LEVELS == 4 && ((const uint64_t *)start_info->pt_base)[X] )
        return test_error("L4 slot %u in use", X);

    test_bad_pointers();
    test_overlong();
    test_l1_bits();
    test_table_bits();

    test_success();
}
