/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest user mode for test kernels: set-up and frame helpers (user.h). */
#include "user.h"
#include "mm.h"
#include <xen/callback.h>

extern const char user_ret_entry[];

uint8_t user_kernel_stack[USER_KERNEL_STACK_SIZE]
    __attribute__((aligned(PAGE_SIZE)));
unsigned long user_frame[9];
unsigned int user_frame_vector;
unsigned long user_syscall_result;
unsigned int user_syscall_count;
unsigned long user_syscall_rax;
unsigned int user_syscall_mask;
const uint8_t *user_mask_ptr;

#ifdef __x86_64__
/*
 * A 64-bit guest's user mode has page tables of its own: ours.  Every
 * kernel mapping is already user-accessible (the kernel runs in ring 3).
 */
static long user_address_space(void)
{
    return mmuext1(MMUEXT_NEW_USER_BASEPTR, pt_base_mfn());
}

unsigned long user_l4(unsigned long code)
{
    unsigned long l1 = alloc_frame(), stack = alloc_frame();
    unsigned long l2, l3;

    frame_set_pte(l1, 0, pte_make(code, PTE_RO | _PAGE_USER));
    frame_set_pte(l1, 1, pte_make(stack, PTE_RW | _PAGE_USER));
    if ( pin_table(1, l1) )
        test_error("pinning the user L1");
    l2 = new_table(2, 0, pte_make(l1, PTE_TABLE | _PAGE_USER));
    l3 = new_table(3, pt_slot(USER_VA, 3), pte_make(l2, PTE_TABLE |
                                                     _PAGE_USER));
    return new_table(4, 0, pte_make(l3, PTE_TABLE | _PAGE_USER));
}
#else
/*
 * A 32-bit guest has one address space for both rings, and its kernel
 * mappings are supervisor-only (ring 1): give every page of the
 * start-of-day mapping, and the L2 entries above them, _PAGE_USER, as
 * XTF's pv32 arch_init_traps() does, and have remap_initial() keep it.
 * (Under a hypervisor that leaves CR4.SMEP/SMAP on for a 32-bit guest,
 * the kernel would then fault on these pages: Xen clears them.)
 */
static long user_address_space(void)
{
    unsigned long va, end = initial_mapping_end();
    const uint64_t *e;
    long rc;

    for ( va = 0; va < end; va += PAGE_SIZE )
    {
        if ( !(e = pt_entry(va, 2)) || !(*e & _PAGE_PRESENT) )
            continue;
        if ( !(*e & _PAGE_USER) &&
             (rc = mmu_update1(pt_entry_maddr(va, 2), *e | _PAGE_USER)) )
            return rc;
        if ( !(e = pt_entry(va, 1)) || !(*e & _PAGE_PRESENT) ||
             (*e & _PAGE_USER) )
            continue;
        if ( (rc = hypercall_update_va_mapping(va, *e | _PAGE_USER,
                                               UVMF_INVLPG)) )
            return rc;
    }
    pte_user_bits = _PAGE_USER;
    return 0;
}
#endif

long user_init(void)
{
    trap_info_t t[2] = {
        { .vector = USER_RET_VECTOR, .flags = 3 | 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_ret_entry },
    };
    long rc;

    rc = HYPERCALL(__HYPERVISOR_stack_switch, FLAT_KERNEL_SS,
                   (unsigned long)user_kernel_stack + USER_KERNEL_STACK_SIZE,
                   0, 0, 0);
    if ( rc )
        return rc;
    rc = user_address_space();
    if ( rc )
        return rc;
    return hypercall_set_trap_table(t);
}

long user_trap_record(void)
{
    trap_info_t t[X86_NR_EXC + 1];
    unsigned int vec;

    memset(t, 0, sizeof(t));
    for ( vec = 0; vec < X86_NR_EXC; vec++ )
    {
        t[vec].vector = vec;
        t[vec].cs = FLAT_KERNEL_CS;
        t[vec].address = user_record_entry[vec];
        t[vec].flags = ((vec == X86_EXC_BP || vec == X86_EXC_OF) ? 3 : 0) |
                       4;
    }
    return hypercall_set_trap_table(t);
}

struct bounce_frame user_last_frame(bool has_error_code)
{
    struct bounce_frame f = { .rcx = user_frame[0], .r11 = user_frame[1] };
    unsigned int i = 2;

    f.has_error_code = has_error_code;
    if ( has_error_code )
        f.error_code = user_frame[i++];
    f.rip = user_frame[i++];
#ifdef __x86_64__
    f.cs = user_frame[i++];
#else
    f.cs = user_frame[i++] & 0xffff;    /* not the saved mask above it */
#endif
    f.rflags = user_frame[i++];
    f.rsp = user_frame[i++];
    f.ss = user_frame[i++];
    return f;
}

long user_register_callback(unsigned int type, unsigned long eip,
                            unsigned int flags)
{
    struct callback_register r = {
        .type = type, .flags = flags, .address = XEN_CALLBACK(eip),
    };

    return HYPERCALL(__HYPERVISOR_callback_op, CALLBACKOP_register,
                     (unsigned long)&r, 0, 0, 0);
}
