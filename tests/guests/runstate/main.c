/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runstate: VCPUOP_get_runstate_info and the area registered with
 * VCPUOP_register_runstate_memory_area, rewritten when the vCPU blocks
 * and wakes; with VMASST_TYPE_runstate_update_flag, XEN_RUNSTATE_UPDATE
 * is clear whenever the guest looks.
 */
#include "guest.h"
#include "event.h"

/* A guest address as the 64-bit field of a registration takes it. */
#define ADDR64(p)   ((uint64_t)(unsigned long)(p))

const char test_title[] = "Runstate: info, registered area, update flag";

static struct vcpu_runstate_info area;

void test_main(void)
{
    struct vcpu_runstate_info r;
    uint64_t blocked, running;
    evtchn_port_t port = 1;

    if ( event_init() )
        return test_error("event_init failed");
    check_rc(vcpu_op(VCPUOP_get_runstate_info, 0, &r), 0);
    if ( r.state != RUNSTATE_running || !r.time[RUNSTATE_running] )
        test_fail("state %d running %lu", r.state,
                  (unsigned long)r.time[RUNSTATE_running]);
    check_rc(vcpu_op(VCPUOP_get_runstate_info, 0, BAD_XEN), -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_get_runstate_info, NO_VCPU, &r), -XEN_ENOENT);

    check_rc(vcpu_op(VCPUOP_register_runstate_memory_area, 0, BAD_XEN),
             -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_register_runstate_memory_area, 0,
                     &(uint64_t){ ADDR64(BAD_XEN) }), -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_register_runstate_memory_area, 0,
                     &(uint64_t){ ADDR64(BAD_NONCANONICAL) }), -XEN_EFAULT);
    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                       VMASST_TYPE_runstate_update_flag, 0, 0, 0), 0);
    check_rc(vcpu_op(VCPUOP_register_runstate_memory_area, 0,
                     &(uint64_t){ ADDR64(&area) }), 0);
    if ( area.state != RUNSTATE_running || !area.state_entry_time )
        test_fail("area: state %d entry %lu", area.state,
                  (unsigned long)area.state_entry_time);

    /* Sleep briefly (a poll whose timeout has passed): blocked, then not. */
    running = area.time[RUNSTATE_running];
    blocked = area.time[RUNSTATE_blocked];
    check_rc(sched_poll(&port, 1, 1), 0);
    if ( area.state != RUNSTATE_running )
        test_fail("after the poll: state %d", area.state);
    if ( area.time[RUNSTATE_blocked] <= blocked )
        test_fail("no blocked time counted");
    if ( area.time[RUNSTATE_running] <= running )
        test_fail("no running time counted");
    if ( area.state_entry_time & XEN_RUNSTATE_UPDATE )
        test_fail("XEN_RUNSTATE_UPDATE left set");
    check_rc(vcpu_op(VCPUOP_get_runstate_info, 0, &r), 0);
    if ( r.time[RUNSTATE_blocked] != area.time[RUNSTATE_blocked] )
        test_fail("get_runstate_info and the area disagree");
    test_success();
}
