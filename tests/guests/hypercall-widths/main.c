/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every hypercall argument is taken at the width Xen's handler declares
 * (xen/include/hypercall-defs.c): an `int` or `unsigned int` sees only
 * the low 32 bits of the guest's register, a domid_t the low 16, so junk
 * in the upper bits changes nothing, directly or inside a multicall.
 * Where a handler may still be a stub, the call with junk must give what
 * the clean call gives.  (multicall's own nr_calls is an unsigned long
 * since Xen 4.19: see the multicall-long test.)
 */
#include "guest.h"
#include "mm.h"
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/physdev.h>
#include <xen/vcpu.h>

const char test_title[] = "Hypercall arguments at Xen's declared widths";

#define HI              (1UL << 32)     /* junk above an int */
#define HI16            (0xbeef0000UL | HI)     /* junk above a domid_t */
#define X86_EXC_NM      7

/* The console: two lines the expect file checks, 5 bytes each. */
static const char five[] = "W5OK!...these bytes are past the count\n";
static const char mc_five[] = "M5OK!...these bytes are past the count\n";
static const char nl[] = "\n";

static unsigned long fs_word[512] __page_aligned = { 0x5eed };
static uint64_t gdt_frame[512] __page_aligned;
static uint8_t window[PAGE_SIZE] __page_aligned;
static unsigned int console_port_status;        /* EVTCHNOP_status's */

#define HC(nr, a1, a2, a3, a4) HYPERCALL(__HYPERVISOR_##nr, a1, a2, a3, a4, 0)

/* A handler that may be a stub: junk must give the same answer. */
static void same(const char *what, long clean, long junk)
{
    if ( clean != junk )
        test_fail("%s: %ld with bit 32 set, %ld without", what, junk, clean);
}

static void test_console_io(void)
{
    static char buf[16];

    check_rc(HC(console_io, CONSOLEIO_write, HI | 5, five, 0), 0);
    check_rc(HC(console_io, CONSOLEIO_write, 1, nl, 0), 0);
    check_rc(HC(console_io, HI | CONSOLEIO_write, 0, NULL, 0), 0);
    /* A count of 0 (plus junk) touches nothing; 5 (plus junk) does. */
    check_rc(HC(console_io, CONSOLEIO_write, HI, BAD_UNMAPPED, 0), 0);
    check_rc(HC(console_io, CONSOLEIO_write, HI | 5, BAD_UNMAPPED, 0),
             -XEN_EFAULT);
    check_rc(HC(console_io, HI | CONSOLEIO_read, HI, buf, 0), 0);
    check_rc(HC(console_io, CONSOLEIO_read, HI | 0x80000000UL, buf, 0),
             -XEN_E2BIG);
    check_rc(HC(console_io, HI | 2, 0, NULL, 0), -XEN_ENOSYS);
}

static void test_xen_version(void)
{
    static char plain[XEN_EXTRAVERSION_LEN], junk[XEN_EXTRAVERSION_LEN];

    check_rc(HC(xen_version, HI | XENVER_version, 0, 0, 0),
             HC(xen_version, XENVER_version, 0, 0, 0));
    check_rc(HC(xen_version, HI | XENVER_pagesize, 0, 0, 0), PAGE_SIZE);
    check_rc(HC(xen_version, XENVER_extraversion, plain, 0, 0), 0);
    check_rc(HC(xen_version, HI | XENVER_extraversion, junk, 0, 0), 0);
    if ( memcmp(plain, junk, sizeof(plain)) )
        test_fail("XENVER_extraversion with bit 32: \"%s\", not \"%s\"",
                  junk, plain);
}

static void test_sched_and_events(void)
{
    evtchn_status_t plain = { .dom = DOMID_SELF, .port = 1 };
    evtchn_status_t junk = plain;

    check_rc(HC(sched_op, HI | SCHEDOP_yield, 0, 0, 0), 0);
    same("sched_op_compat(SCHEDOP_yield)",
         HC(sched_op_compat, SCHEDOP_yield, 0, 0, 0),
         HC(sched_op_compat, HI | SCHEDOP_yield, 0, 0, 0));

    plain.port = junk.port = start_info->console.domU.evtchn;
    check_rc(HC(event_channel_op, EVTCHNOP_status, &plain, 0, 0), 0);
    check_rc(HC(event_channel_op, HI | EVTCHNOP_status, &junk, 0, 0), 0);
    if ( junk.status != plain.status || junk.vcpu != plain.vcpu )
        test_fail("EVTCHNOP_status with bit 32: status %u, not %u",
                  junk.status, plain.status);
    console_port_status = plain.status;
}

static void test_callback_op(void)
{
    struct callback_register r = {
        .type = CALLBACKTYPE_syscall, .address = (unsigned long)test_main,
    };

    /* Register with a bad pointer: -EFAULT, not -ENOSYS for the cmd. */
    check_rc(HC(callback_op, HI | CALLBACKOP_register, BAD_UNMAPPED, 0, 0),
             -XEN_EFAULT);
    check_rc(HC(callback_op, HI | CALLBACKOP_register, &r, 0, 0), 0);
    check_rc(HC(callback_op, HI | 0x1000, &r, 0, 0), -XEN_ENOSYS);
}

/* vm_assist(cmd, type): both unsigned int; checked through a PTE write. */
static void test_vm_assist(void)
{
    volatile uint64_t *e = (volatile uint64_t *)pt_entry(
        (unsigned long)window, 1);
    uint64_t v;

    if ( !e )
        return test_error("no L1 entry for the window");
    v = *e;
    check_rc(HC(vm_assist, HI | VMASST_CMD_enable,
                HI | VMASST_TYPE_writable_pagetables, 0, 0), 0);
    check_rc(TRY("movq %[v], (%[p])", [p] "r" (e), [v] "r" (v)), 0);
    check_rc(HC(vm_assist, HI | VMASST_CMD_disable,
                HI | VMASST_TYPE_writable_pagetables, 0, 0), 0);
    if ( exinfo_vector(TRY("movq %[v], (%[p])", [p] "r" (e), [v] "r" (v)))
         != X86_EXC_PF )
        test_fail("vm_assist disable with bit 32 left the assist on");
    check_rc(HC(vm_assist, HI | 2, VMASST_TYPE_writable_pagetables, 0, 0),
             -XEN_ENOSYS);
}

static unsigned long read_fs0(void)
{
    unsigned long v;

    asm volatile ( "mov %%fs:0, %0" : "=r" (v) :: "memory" );
    return v;
}

/* set_segment_base(which), fpu_taskswitch(set), set/get_debugreg(reg). */
static void test_cpu_state(void)
{
    check_rc(HC(set_segment_base, HI | SEGBASE_FS, fs_word, 0, 0), 0);
    if ( read_fs0() != 0x5eed )
        test_fail("%%fs:0 reads %#lx after set_segment_base", read_fs0());
    check_rc(HC(set_segment_base, HI | SEGBASE_FS, 0, 0, 0), 0);

    /* 1 << 32 is 0 as an int: it clears TS, it does not set it. */
    check_rc(HC(fpu_taskswitch, HI | 1, 0, 0, 0), 0);
    check_rc(TRY("fnop"), EXINFO(X86_EXC_NM, 0));
    check_rc(HC(fpu_taskswitch, 1, 0, 0, 0), 0);
    check_rc(HC(fpu_taskswitch, HI, 0, 0, 0), 0);
    check_rc(TRY("fnop"), 0);

    check_rc(HC(set_debugreg, HI | 0, fs_word, 0, 0), 0);
    check_rc(HC(get_debugreg, HI | 0, 0, 0, 0), (long)fs_word);
    check_rc(HC(set_debugreg, HI | 0, 0, 0, 0), 0);
    check_rc(HC(get_debugreg, 0, 0, 0, 0), 0);
    check_rc(HC(set_debugreg, HI | 8, 0, 0, 0), -XEN_ENODEV);
}

/* set_gdt(frame_list, entries): entries is an unsigned int. */
static void test_set_gdt(void)
{
    unsigned long mfn = virt_to_mfn(gdt_frame);

    check_rc(hypercall_update_va_mapping((unsigned long)gdt_frame,
                                         pte_make(mfn, PTE_RO),
                                         UVMF_INVLPG | UVMF_LOCAL), 0);
    check_rc(HC(set_gdt, &mfn, HI | 16, 0, 0), 0);
    check_rc(HC(set_gdt, &mfn, HI | (FIRST_RESERVED_GDT_ENTRY + 1), 0, 0),
             -XEN_EINVAL);
    check_rc(HC(set_gdt, BAD_XEN, HI, 0, 0), 0);        /* 0 entries */
    check_rc(remap_initial((unsigned long)gdt_frame), 0);
}

/* The PV MMU's counts and domain ids; vcpu_op and physdev_op. */
static void test_mmu_and_others(void)
{
    uint64_t ptr = pt_entry_maddr((unsigned long)window, 1);
    mmu_update_t req = { .ptr = ptr, .val = *pt_entry((unsigned long)window, 1) };
    mmuext_op_t op = { .cmd = MMUEXT_TLB_FLUSH_LOCAL };
    struct physdev_set_iopl iopl = { .iopl = 4 };
    unsigned int done = 0;

    check_rc(HC(mmu_update, &req, HI | 1, &done, HI | DOMID_SELF), 0);
    check_rc(done, 1);
    done = 0;
    check_rc(HC(mmuext_op, &op, HI | 1, &done, HI | DOMID_SELF), 0);
    check_rc(done, 1);
    check_rc(HYPERCALL(__HYPERVISOR_update_va_mapping_otherdomain,
                       window, req.val, UVMF_INVLPG | UVMF_LOCAL,
                       HI16 | DOMID_SELF, 0), 0);

    same("vcpu_op(VCPUOP_is_up, 0)", HC(vcpu_op, VCPUOP_is_up, 0, NULL, 0),
         HC(vcpu_op, HI | VCPUOP_is_up, HI, NULL, 0));
    same("physdev_op(PHYSDEVOP_set_iopl, 4)",
         HC(physdev_op, PHYSDEVOP_set_iopl, &iopl, 0, 0),
         HC(physdev_op, HI | PHYSDEVOP_set_iopl, &iopl, 0, 0));
}

static void set(multicall_entry_t *mc, unsigned long op, unsigned long a0,
                unsigned long a1, unsigned long a2)
{
    *mc = (multicall_entry_t){
        .op = op, .result = 0x5a5a5a5a, .args = { a0, a1, a2 },
    };
}

/* The same truncation for a multicall's entries. */
static void test_multicall(void)
{
    evtchn_status_t st = { .dom = DOMID_SELF };
    multicall_entry_t mc[9];
    long want[ARRAY_SIZE(mc)] = {
        PAGE_SIZE, 0, 0, 0, 0, 0, (long)fs_word, 0, 0,
    };
    unsigned int i;

    st.port = start_info->console.domU.evtchn;
    set(&mc[0], __HYPERVISOR_xen_version, HI | XENVER_pagesize, 0, 0);
    set(&mc[1], __HYPERVISOR_console_io, HI | CONSOLEIO_write, HI | 5,
        (unsigned long)mc_five);
    set(&mc[2], __HYPERVISOR_console_io, CONSOLEIO_write, 1,
        (unsigned long)nl);
    set(&mc[3], __HYPERVISOR_sched_op, HI | SCHEDOP_yield, 0, 0);
    set(&mc[4], __HYPERVISOR_vm_assist, HI | VMASST_CMD_disable,
        HI | VMASST_TYPE_writable_pagetables, 0);
    set(&mc[5], __HYPERVISOR_set_debugreg, HI | 1, (unsigned long)fs_word,
        0);
    set(&mc[6], __HYPERVISOR_get_debugreg, HI | 1, 0, 0);
    set(&mc[7], __HYPERVISOR_set_debugreg, HI | 1, 0, 0);
    set(&mc[8], __HYPERVISOR_event_channel_op, HI | EVTCHNOP_status,
        (unsigned long)&st, 0);

    check_rc(hypercall_multicall(mc, ARRAY_SIZE(mc)), 0);
    for ( i = 0; i < ARRAY_SIZE(mc); i++ )
        if ( (long)mc[i].result != want[i] )
            test_fail("multicall entry %u: %ld, expected %ld", i,
                      (long)mc[i].result, want[i]);
    if ( st.status != console_port_status )
        test_fail("EVTCHNOP_status in a multicall: status %u, not %u",
                  st.status, console_port_status);
}

void test_main(void)
{
    test_console_io();
    test_xen_version();
    test_sched_and_events();
    test_callback_op();
    test_vm_assist();
    test_cpu_state();
    test_set_gdt();
    test_mmu_and_others();
    test_multicall();
    test_success();
}
