/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The second vcpu_time_info copy (VCPUOP_register_vcpu_time_memory_area)
 * at an address only the kernel's page tables map: while user mode runs
 * on its own L4, the shim's periodic update can't write it; Xen keeps it
 * pending and writes it as the guest enters its kernel
 * (toggle_guest_mode(), update_secondary_system_time()).  User code spins
 * past the shim's one-second update, then traps back; the copy must then
 * be as new as vcpu_info's.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "user.h"

const char test_title[] = "Time area written on entry to the kernel";

#define DEADLINE    0x100               /* in the code page: TSC to wait for */

static struct vcpu_time_info area;

static uint64_t rdtsc(void)
{
    uint32_t lo, hi;

    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    return ((uint64_t)hi << 32) | lo;
}

void test_main(void)
{
    static const uint8_t code[] = {
        0x0f, 0x31,                             /* 1: rdtsc */
        0x48, 0xc1, 0xe2, 0x20,                 /* shl $32, %rdx */
        0x48, 0x09, 0xc2,                       /* or %rax, %rdx */
        0x48, 0x3b, 0x14, 0x25,                 /* cmp DEADLINE, %rdx */
        0x00, 0x01, 0x00, 0x40,                 /* USER_VA + DEADLINE */
        0x72, 0xed,                             /* jb 1b */
        0xb8, 0x34, 0x12, 0x00, 0x00,           /* mov $0x1234, %eax */
        0xcd, USER_RET_VECTOR,                  /* int $0x21 */
    };
    const volatile struct vcpu_time_info *t;
    unsigned long code_mfn = alloc_frame(), l4;
    uint64_t before, deadline, ghz;

    if ( event_init() )
        return test_error("event_init failed");
    check_rc(user_init(), 0);
    t = &event_vcpu_info->time;

    frame_write(code_mfn, 0, code, sizeof(code));
    l4 = user_l4(code_mfn);
    check_rc(vcpu_op(VCPUOP_register_vcpu_time_memory_area, 0,
                     &(uint64_t){ (uint64_t)&area }), 0);
    before = area.system_time;
    if ( (area.version & 1) || before != t->system_time )
        test_fail("copy at registration: version %u time %lu, vcpu_info %lu",
                  area.version, (unsigned long)before,
                  (unsigned long)t->system_time);

    /* 1.5 s of TSC ticks (the scale: 2^32 ns per mul ticks, shifted). */
    ghz = ((1UL << 32) * 1500000000UL) / t->tsc_to_system_mul;
    deadline = rdtsc() + (t->tsc_shift >= 0 ? ghz >> t->tsc_shift
                                            : ghz << -t->tsc_shift);
    frame_write(code_mfn, DEADLINE, &deadline, sizeof(deadline));

    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, l4), 0);
    check_rc(exec_user_raw(USER_VA, USER_VA + 2 * PAGE_SIZE, 0x202), 0x1234);

    printf("  vcpu_info %lu ns, copy %lu ns (was %lu), version %u\n",
           (unsigned long)t->system_time, (unsigned long)area.system_time,
           (unsigned long)before, area.version);
    if ( t->system_time == before )
        test_fail("vcpu_info not updated in 1.5 s of user mode");
    if ( area.system_time != t->system_time || (area.version & 1) )
        test_fail("copy not written on entry to the kernel: %lu, "
                  "vcpu_info %lu", (unsigned long)area.system_time,
                  (unsigned long)t->system_time);

    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, pt_base_mfn()), 0);
    test_success();
}
