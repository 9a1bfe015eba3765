/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_down on the last vCPU that is up: Xen shuts the domain down
 * with reason poweroff (do_vcpu_op), so the VM ends with status 0.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "VCPUOP_down of the only vCPU powers off";

void test_main(void)
{
    check_rc(vcpu_op(VCPUOP_down, NO_VCPU, NULL), -XEN_ENOENT);
    printf("vcpu-down: taking vCPU 0 down\n");
    vcpu_op(VCPUOP_down, 0, NULL);
    test_fail("VCPUOP_down of the last vCPU returned");
}
