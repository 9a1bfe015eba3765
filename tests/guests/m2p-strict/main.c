/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VMASST_TYPE_m2p_strict, as xen.h defines it and Xen's mm.c does it:
 * without the assist an L4 is created with the read-only M2P's slot
 * blank and gets it once used as a kernel L4 (fill_ro_mpt()); with it an
 * L4 is created with the slot and loses it once used as a user L4
 * (zap_ro_mpt()).  So: the kernel reads the M2P on its own L4 either
 * way; user mode reads it through a shared L4 without the assist, and
 * never through a user L4 named while the assist is on.
 */
#include "guest.h"
#include "mm.h"
#include "user.h"

const char test_title[] = "VMASST_TYPE_m2p_strict: the M2P hidden from user";

#define PFEC_U      4u

/* The M2P entry of a frame of ours: a pfn, not ~0. */
static unsigned long m2p_va;

static unsigned long user_read_m2p(unsigned long unused)
{
    return probe_read((const void *)m2p_va) ? ~0UL :
           *(const volatile unsigned long *)m2p_va;
}

static long assist(unsigned int cmd)
{
    return HYPERCALL(__HYPERVISOR_vm_assist, cmd, VMASST_TYPE_m2p_strict,
                     0, 0, 0);
}

/* User mode on L4 @l4 reads M2P[0] (or takes a #PF, in user_frame). */
static unsigned long user_l4_read(unsigned long l4)
{
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, l4), 0);
    user_frame_vector = 0;
    shared_info->vcpu_info[0].arch.cr2 = 0;
    return exec_user_raw(USER_VA, USER_VA + 2 * PAGE_SIZE, 0x202);
}

static void check_user_pf(const char *what, unsigned long got)
{
    struct bounce_frame f = user_last_frame(true);

    if ( user_frame_vector == 0xff &&
         f.error_code == PFEC_U &&
         shared_info->vcpu_info[0].arch.cr2 == m2p_va )
        return;
    test_fail("%s: got %#lx, vector %u error code %#lx rip %#lx cr2 %#lx: "
              "wanted #PF[U] on the M2P", what, got, user_frame_vector,
              f.error_code, f.rip, shared_info->vcpu_info[0].arch.cr2);
}

void test_main(void)
{
    uint8_t code[] = {
        0x48, 0xa1, 0, 0, 0, 0, 0, 0, 0, 0,     /* mov m2p_va, %rax */
        0xcd, USER_RET_VECTOR,                  /* int $0x21 */
    };
    trap_info_t pf[2] = {
        { .vector = X86_EXC_PF, .flags = 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_fault_ret_entry },
    };
    unsigned long m2p0, code_mfn, l4_off, l4_on;

    check_rc(map_shared_info(), 0);
    check_rc(user_init(), 0);
    m2p_va = MACH2PHYS_VIRT_START + 8 * virt_to_mfn(&m2p_va);
    memcpy(&code[2], &m2p_va, 8);
    if ( probe_read((const void *)m2p_va) )
        return test_fail("kernel: M2P unreadable at start of day");
    m2p0 = *(const volatile unsigned long *)m2p_va;
    if ( m2p0 != ((unsigned long)&m2p_va >> PAGE_SHIFT) )
        return test_fail("M2P: %#lx, not our pfn", m2p0);

    /* Off, the kernel's L4 shared: user mode reads the M2P too. */
    check_rc(exec_user(user_read_m2p, 0), m2p0);

    /* Off, a fresh user L4 has the slot blank: #PF. */
    code_mfn = alloc_frame();
    frame_write(code_mfn, 0, code, sizeof(code));
    l4_off = user_l4(code_mfn);
    check_rc(hypercall_set_trap_table(pf), 0);
    check_user_pf("assist off, fresh user L4", user_l4_read(l4_off));

    /* On: a fresh L4 has it, and loses it as a user L4. */
    check_rc(assist(VMASST_CMD_enable), 0);
    l4_on = user_l4(code_mfn);
    check_user_pf("assist on, fresh user L4", user_l4_read(l4_on));
    if ( probe_read((const void *)m2p_va) )
        test_fail("assist on: the kernel lost the M2P");

    /* Off again: what was zapped stays so (Xen refills nothing). */
    check_rc(assist(VMASST_CMD_disable), 0);
    check_user_pf("assist off again, zapped L4", user_l4_read(l4_on));
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, pt_base_mfn()), 0);
    check_rc(trap_init(), 0);
    check_rc(exec_user(user_read_m2p, 0), m2p0);

    /*
     * On, and the kernel's own L4 named as the user one: zapped for both
     * modes, as on Xen (a guest keeps its L4s apart under this assist).
     */
    check_rc(assist(VMASST_CMD_enable), 0);
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, 0), 0);
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, pt_base_mfn()), 0);
    check_rc(tlb_flush_local(), 0);
    if ( probe_read((const void *)m2p_va) != EXINFO(X86_EXC_PF, 0) )
        test_fail("assist on, kernel L4 as user L4: M2P still readable");
    if ( exec_user(user_read_m2p, 0) != ~0UL )
        test_fail("assist on, kernel L4 as user L4: user reads the M2P");
    test_success();
}
