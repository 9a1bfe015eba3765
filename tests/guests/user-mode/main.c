/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest user mode: HYPERVISOR_iret into it and a trap back, the user
 * page tables (MMUEXT_NEW_USER_BASEPTR, a user L4 that leaves the kernel
 * out), the %gs bases swapped on every switch, a user #PF with its U bit,
 * and what user code may not do (hypercalls, privileged instructions).
 */
#include "guest.h"
#include "mm.h"
#include "user.h"

const char test_title[] = "Guest user mode: entry, return, page tables, %gs";

#define PFEC_P      1u
#define PFEC_W      2u
#define PFEC_U      4u

static unsigned long add_one(unsigned long x)
{
    return x + 1;
}

#ifdef __x86_64__
/* CS says nothing (both modes use FLAT_RING3_CS64): a hypercall does. */
static unsigned long user_hypercall(unsigned long unused)
{
    exinfo_t ex = 0;

    asm volatile ( "mov %[nr], %%eax; 1: syscall; 2:\n\t"
                   ASM_EXTABLE(1b, 2b) ASM_EXTABLE(2b, 2b)
                   : "+a" (ex) : [nr] "i" (__HYPERVISOR_xen_version)
                   : "rcx", "r11", "memory" );
    return ex;
}

#define USER_HYPERCALL_FAULT    EXINFO(X86_EXC_UD, 0)
#else
/* int $0x82 is ring 1's (a DPL-1 gate): #GP for its IDT entry in ring 3. */
static unsigned long user_hypercall(unsigned long unused)
{
    exinfo_t ex = 0;

    asm volatile ( "mov %[nr], %%eax; 1: int $0x82; 2:\n\t"
                   ASM_EXTABLE(1b, 2b) ASM_EXTABLE(2b, 2b)
                   : "+a" (ex) : [nr] "i" (__HYPERVISOR_xen_version)
                   : "ebx", "ecx", "edx", "esi", "edi", "memory" );
    return ex;
}

#define USER_HYPERCALL_FAULT    EXINFO(X86_EXC_GP, (0x82 << 3) | 2)
#endif

#ifdef __x86_64__
static unsigned long read_gs0(unsigned long unused)
{
    unsigned long v;

    asm volatile ( "mov %%gs:0, %0" : "=r" (v) );
    return v;
}
#endif

static unsigned long user_probe(unsigned long p)
{
    return probe_read((void *)p);
}

static unsigned long user_mov_cr3(unsigned long unused)
{
    exinfo_t ex = 0;
    unsigned long v;

    asm volatile ( "1: mov %%cr3, %[v]; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), [v] "=d" (v) :: "memory" );
    return ex;
}

static void test_shared_l4(void)
{
#ifdef __x86_64__
    static unsigned long kvar = 0x4b4b, uvar = 0x5555;
#endif
    exinfo_t ex;

    check_rc(exec_user(add_one, 41), 42);
    check_rc(exec_user(add_one, 1), 2);

    ex = exec_user(user_hypercall, 0);
    if ( ex != USER_HYPERCALL_FAULT )
        test_fail("hypercall from user mode: exinfo %#lx, wanted %#lx", ex,
                  USER_HYPERCALL_FAULT);

    ex = exec_user(user_mov_cr3, 0);
    if ( ex != EXINFO(X86_EXC_GP, 0) )
        test_fail("mov from %%cr3 in user mode: exinfo %#lx, wanted #GP",
                  ex);

    /* A user #PF keeps its U bit; the kernel's is shown without it. */
    ex = exec_user(user_probe, (unsigned long)BAD_UNMAPPED);
    if ( ex != EXINFO(X86_EXC_PF, PFEC_U) )
        test_fail("user #PF: exinfo %#lx, wanted #PF[U]", ex);
    if ( last_pf_cr2 != (unsigned long)BAD_UNMAPPED )
        test_fail("user #PF: cr2 %#lx", last_pf_cr2);
    ex = probe_read(BAD_UNMAPPED);
    if ( ex != EXINFO(X86_EXC_PF, 0) )
        test_fail("kernel #PF: exinfo %#lx, wanted #PF[0]", ex);

#ifdef __x86_64__
    /* Each mode runs on its own %gs base (set_segment_base: x86-64). */
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_KERNEL,
                       &kvar, 0, 0, 0), 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_USER,
                       &uvar, 0, 0, 0), 0);
    check_rc(exec_user(read_gs0, 0), 0x5555);
    check_rc(read_gs0(0), 0x4b4b);
    check_rc(exec_user(read_gs0, 0), 0x5555);
    check_rc(read_gs0(0), 0x4b4b);
#endif
}

#ifdef __x86_64__
static void test_own_l4(void)
{
    static const uint8_t code[] = {
        /* +0x00: mov $0x1234, %eax; int $0x21 */
        0xb8, 0x34, 0x12, 0x00, 0x00, 0xcd, USER_RET_VECTOR,
    };
    static const uint8_t read_kernel[] = {
        /* mov 0x100000, %al (the kernel's first page); int $0x21 */
        0x8a, 0x04, 0x25, 0x00, 0x00, 0x10, 0x00, 0xcd, USER_RET_VECTOR,
    };
    static const uint8_t write_code[] = {
        /* mov %al, USER_VA (its own read-only page) */
        0x88, 0x04, 0x25, 0x00, 0x00, 0x00, 0x40,
    };
    trap_info_t pf[2] = {
        { .vector = X86_EXC_PF, .flags = 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_fault_ret_entry },
    };
    unsigned long code_mfn = alloc_frame(), l4;
    unsigned long sp = USER_VA + 2 * PAGE_SIZE;
    struct bounce_frame f;

    frame_write(code_mfn, 0, code, sizeof(code));
    frame_write(code_mfn, 0x100, read_kernel, sizeof(read_kernel));
    frame_write(code_mfn, 0x200, write_code, sizeof(write_code));
    l4 = user_l4(code_mfn);

    /* Not an L4, or not a frame at all: refused. */
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, code_mfn + 0x100000000UL),
             -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, virt_to_mfn(&f)), -XEN_EINVAL);

    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, l4), 0);
    check_rc(exec_user_raw(USER_VA, sp, 0x202), 0x1234);

    /* The kernel isn't there for user mode. */
    check_rc(hypercall_set_trap_table(pf), 0);
    exec_user_raw(USER_VA + 0x100, sp, 0x202);
    f = user_last_frame(true);
    if ( user_frame_vector != 0xff || f.error_code != PFEC_U ||
         f.rip != USER_VA + 0x100 || f.cs != FLAT_USER_CS ||
         f.rsp != sp || f.ss != FLAT_USER_SS )
        test_fail("user read of a kernel page: frame ec %#lx rip %#lx "
                  "cs %#lx rsp %#lx ss %#lx", f.error_code, f.rip, f.cs,
                  f.rsp, f.ss);
    if ( shared_info->vcpu_info[0].arch.cr2 != 0x100000 )
        test_fail("user read of a kernel page: cr2 %#lx",
                  shared_info->vcpu_info[0].arch.cr2);
    exec_user_raw(USER_VA + 0x200, sp, 0x202);
    f = user_last_frame(true);
    if ( f.error_code != (PFEC_U | PFEC_W | PFEC_P) ||
         f.rip != USER_VA + 0x200 )
        test_fail("user write to its read-only page: ec %#lx rip %#lx",
                  f.error_code, f.rip);
    check_rc(trap_init(), 0);

    /* Back to the shared L4; the old one loses its reference. */
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, pt_base_mfn()), 0);
    check_rc(unpin_table(l4), 0);
    check_rc(exec_user(add_one, 7), 8);
}
#else
/*
 * One address space for both rings, told apart by _PAGE_USER: a page
 * mapped without it is ring 1's, and user mode takes #PF[U|P] there.
 */
static void test_own_l4(void)
{
    static uint8_t win[PAGE_SIZE] __page_aligned;
    unsigned long w = (unsigned long)win;
    exinfo_t ex;

    check_rc(exec_user(user_probe, w), 0);
    check_rc(map_frame_at(w, virt_to_mfn(win), PTE_RW), 0);
    ex = exec_user(user_probe, w);
    if ( ex != EXINFO(X86_EXC_PF, PFEC_U | PFEC_P) )
        test_fail("user read of a kernel page: exinfo %#lx, wanted "
                  "#PF[U|P]", ex);
    check_rc(probe_read(win), 0);
    check_rc(remap_initial(w), 0);
    check_rc(exec_user(user_probe, w), 0);
}
#endif

void test_main(void)
{
    if ( map_shared_info() )
        return test_error("can't map shared_info");
    check_rc(user_init(), 0);
    test_shared_l4();
    test_own_l4();
    test_success();
}
