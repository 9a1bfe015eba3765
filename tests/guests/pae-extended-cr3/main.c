/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PAE_MODE as libxc acts on it: a 32-bit kernel whose note says "yes"
 * (extended cr3: its page directory may be above 4 GiB) starts with
 * VMASST_TYPE_pae_extended_cr3 on (vcpu_x86_32()), a 64-bit one with it
 * off.  The assist's one visible effect on Xen is XENVER_get_features
 * reporting XENFEAT_pae_pgdir_above_4gb (common/kernel.c), so that is
 * what is checked at start, and as the guest turns it off and on.
 */
#include "guest.h"

const char test_title[] = "PAE_MODE: the extended-cr3 assist at start";

static bool pgdir_above_4gb(void)
{
    xen_feature_info_t fi = { .submap_idx = 0 };

    check_rc(hypercall_xen_version(XENVER_get_features, &fi), 0);
    return fi.submap & (1U << XENFEAT_pae_pgdir_above_4gb);
}

static void expect(bool want, const char *when)
{
    if ( pgdir_above_4gb() != want )
        test_fail("%s: pae_pgdir_above_4gb %s", when,
                  want ? "missing" : "reported");
}

void test_main(void)
{
#ifdef __x86_64__
    expect(false, "at start, a 64-bit kernel");
#else
    expect(true, "at start, PAE_MODE \"yes\"");
#endif

    check_rc(hypercall_vm_assist(VMASST_CMD_disable,
                                 VMASST_TYPE_pae_extended_cr3), 0);
    expect(false, "assist off");
    check_rc(hypercall_vm_assist(VMASST_CMD_enable,
                                 VMASST_TYPE_pae_extended_cr3), 0);
    expect(true, "assist on");

    test_success();
}
