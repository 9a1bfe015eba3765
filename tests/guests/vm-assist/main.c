/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_vm_assist as Xen's do_vm_assist() (common/domain.c) with a
 * PV guest's mask (PV64_VM_ASSIST_MASK; a 32-bit guest's PV32 one lacks
 * m2p_strict): the types Xen 4.17 accepts enable and disable
 * (some mean nothing in 64-bit mode, yet Xen can't refuse them), any
 * other type is -EINVAL before the command is looked at, an unknown
 * command -ENOSYS.  Both arguments are unsigned ints to Xen.
 */
#include "guest.h"

const char test_title[] = "vm_assist: PV types, bad types and commands";

static long vm_assist(unsigned long cmd, unsigned long type)
{
    return HYPERCALL(__HYPERVISOR_vm_assist, cmd, type, 0, 0, 0);
}

static const unsigned int valid[] = {
    VMASST_TYPE_4gb_segments, VMASST_TYPE_4gb_segments_notify,
    VMASST_TYPE_writable_pagetables, VMASST_TYPE_pae_extended_cr3,
    VMASST_TYPE_architectural_iopl, VMASST_TYPE_runstate_update_flag,
#ifdef __x86_64__
    VMASST_TYPE_m2p_strict,             /* x86/64 only (xen.h) */
#endif
};

static bool is_valid(unsigned int type)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(valid); i++ )
        if ( valid[i] == type )
            return true;
    return false;
}

void test_main(void)
{
    unsigned int i, t;

    for ( i = 0; i < ARRAY_SIZE(valid); i++ )
    {
        check_rc(vm_assist(VMASST_CMD_enable, valid[i]), 0);
        check_rc(vm_assist(VMASST_CMD_enable, valid[i]), 0);
        check_rc(vm_assist(VMASST_CMD_disable, valid[i]), 0);
        check_rc(vm_assist(VMASST_CMD_disable, valid[i]), 0);
        check_rc(vm_assist(2, valid[i]), -XEN_ENOSYS);
        check_rc(vm_assist(~0UL, valid[i]), -XEN_ENOSYS);
    }

    /* Every other type, including those past BITS_PER_LONG. */
    for ( t = 0; t < 80; t++ )
        if ( !is_valid(t) )
        {
            check_rc(vm_assist(VMASST_CMD_enable, t), -XEN_EINVAL);
            check_rc(vm_assist(VMASST_CMD_disable, t), -XEN_EINVAL);
            check_rc(vm_assist(2, t), -XEN_EINVAL);
        }
    check_rc(vm_assist(VMASST_CMD_enable, ~0UL), -XEN_EINVAL);
    check_rc(vm_assist(VMASST_CMD_enable, 0x80000000UL), -XEN_EINVAL);

#ifdef __x86_64__
    /* Only the low 32 bits of each argument count. */
    check_rc(vm_assist((1UL << 32) | VMASST_CMD_enable,
                       (1UL << 32) | VMASST_TYPE_writable_pagetables), 0);
    check_rc(vm_assist(VMASST_CMD_disable,
                       (1UL << 32) | VMASST_TYPE_writable_pagetables), 0);
#endif

    /* What Linux turns on at boot. */
    check_rc(vm_assist(VMASST_CMD_enable, VMASST_TYPE_writable_pagetables),
             0);
    check_rc(vm_assist(VMASST_CMD_enable, VMASST_TYPE_pae_extended_cr3), 0);

    test_success();
}
