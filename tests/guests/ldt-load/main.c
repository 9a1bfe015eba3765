/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Loading a data segment from the LDT, as GNU Mach's user segments and
 * Linux's modify_ldt() users (Wine, dosemu) do.  The LDT is mapped on
 * demand; the CPU then sets the descriptor's accessed bit, a write into
 * the LDT's mapping, which must not fault (Xen maps the LDT writable in
 * its own view: the frame's descriptor type keeps the guest from writing
 * it).  And a 64-bit guest's user mode loading one for the first time
 * finds the LDT through the kernel's page tables, where the LDT lives,
 * not the user's, which don't map it (Xen's guest_get_eff_kern_l1e()).
 */
#include "guest.h"
#include "mm.h"
#include "user.h"

const char test_title[] = "LDT data segments: the accessed bit, and from user mode";

#ifdef __x86_64__
#define LDT_DATA    0x00cff2000000ffffULL   /* DPL 3, RW data, not accessed */
#define LDT_DATA_A  0x00cff3000000ffffULL   /* the same, accessed */
#define SEL(i)      ((i) << 3 | 4 | 3)      /* LDT, RPL 3 */
#else
#define LDT_DATA    0x00cfb2000000ffffULL   /* DPL 1, RW data, not accessed */
#define LDT_DATA_A  0x00cfb3000000ffffULL
#define SEL(i)      ((i) << 3 | 4 | 1)      /* LDT, RPL 1 */
#endif
#define ACCESSED    (1ULL << 40)

static uint8_t win[PAGE_SIZE] __page_aligned;

#ifdef __x86_64__
/*
 * User mode on its own L4 (user_l4(): nothing of the kernel's in it, so
 * not the LDT either) loads %es from LDT entry 1: %rax 0x5a, or a fault
 * recorded by user_fault_ret_entry.
 */
static void user_load(unsigned long ldt)
{
    uint8_t code[] = {
        0xb8, SEL(1), 0, 0, 0,                  /* mov $sel, %eax */
        0x8e, 0xc0,                             /* mov %eax, %es */
        0xb8, 0x5a, 0, 0, 0,                    /* mov $0x5a, %eax */
        0xcd, USER_RET_VECTOR,                  /* int $0x21 */
    };
    trap_info_t pf[2] = {
        { .vector = X86_EXC_PF, .flags = 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_fault_ret_entry },
    };
    unsigned long code_mfn = alloc_frame(), got;

    check_rc(user_init(), 0);
    frame_write(code_mfn, 0, code, sizeof(code));
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, user_l4(code_mfn)), 0);
    check_rc(hypercall_set_trap_table(pf), 0);
    /* Mapped afresh: the first load from user mode maps it. */
    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(mmuext_set_ldt((unsigned long)win, 2), 0);
    user_frame_vector = 0;
    got = exec_user_raw(USER_VA, USER_VA + 2 * PAGE_SIZE, 0x202);
    if ( got != 0x5a )
        test_fail("user mode: %%es from the LDT: got %#lx, vector %u, "
                  "cr2 %#lx", got, user_frame_vector,
                  shared_info->vcpu_info[0].arch.cr2);
    if ( !(frame_get_pte(ldt, 1) & ACCESSED) )
        test_fail("user mode: entry 1 not marked accessed");
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, pt_base_mfn()), 0);
    check_rc(trap_init(), 0);
}
#endif

void test_main(void)
{
    unsigned long ldt = alloc_frame();
    exinfo_t ex;

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    frame_set_pte(ldt, 0, LDT_DATA);
    frame_set_pte(ldt, 1, LDT_DATA_A);
    check_rc(map_frame_at((unsigned long)win, ldt, PTE_RO), 0);
    check_rc(mmuext_set_ldt((unsigned long)win, 2), 0);

    /* The kernel: mapped on the first load, the accessed bit set. */
    if ( (ex = load_es(SEL(0))) )
        test_fail("%%es from the LDT: vector %u error %#x, cr2 %#lx",
                  exinfo_vector(ex), exinfo_error(ex),
                  shared_info->vcpu_info[0].arch.cr2);
    else if ( !(frame_get_pte(ldt, 0) & ACCESSED) )
        test_fail("entry 0 loaded but not marked accessed");
    /* Again, accessed already. */
    if ( (ex = load_es(SEL(0))) )
        test_fail("%%es from the LDT, again: vector %u error %#x",
                  exinfo_vector(ex), exinfo_error(ex));
    /* Past the LDT's 2 entries: #GP(selector), nothing mapped. */
    if ( (ex = load_es(SEL(2))) != EXINFO(X86_EXC_GP, SEL(2) & ~3) )
        test_fail("entry 2, past the limit: %#lx, wanted #GP(%#x)",
                  (unsigned long)ex, SEL(2) & ~3);
    /* Still descriptors: the guest can't write the frame. */
    if ( !map_frame_at((unsigned long)win, ldt, PTE_RW) )
        test_fail("the LDT frame mapped writable while it is the LDT");

#ifdef __x86_64__
    user_load(ldt);
#endif
    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(remap_initial((unsigned long)win), 0);
    test_success();
}
