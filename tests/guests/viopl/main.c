/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Virtual IOPL, as XTF's pv-iopl checks it on Xen: PHYSDEVOP_set_iopl
 * (the kernel counts as CPL 1) and VMASST_TYPE_architectural_iopl (the
 * kernel is CPL 0, HYPERVISOR_iret sets the IOPL); cli and outb from
 * kernel and user mode fault with #GP(0) exactly when the IOPL is too
 * low.  Allowed cli/sti are skipped as Xen skips them (the event mask is
 * the guest's to set in vcpu_info).  Ports a domU may use: writes vanish,
 * reads are all ones, the RTC index and CONFIG_ADDRESS latch; its own I/O
 * bitmap (PHYSDEVOP_set_iobitmap) opens single ports.
 */
#include "guest.h"
#include "user.h"
#include <xen/physdev.h>

const char test_title[] = "Virtual IOPL: set_iopl, architectural_iopl, "
                          "I/O bitmap";

static long set_iopl(unsigned int iopl)
{
    struct physdev_set_iopl op = { .iopl = iopl };

    return HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iopl, &op, 0, 0,
                     0);
}

static unsigned long do_cli(unsigned long u)
{
    return TRY("cli", "i" (0));
}

static unsigned long do_sti(unsigned long u)
{
    return TRY("sti", "i" (0));
}

static unsigned long do_outb(unsigned long port)
{
    return TRY("outb %%al, %%dx", "d" (port));
}

static unsigned long nop(unsigned long u)
{
    return 0;
}

static void expect(const char *what, bool user, unsigned int iopl,
                   exinfo_t got, bool fault)
{
    if ( got != (fault ? EXINFO(X86_EXC_GP, 0) : 0) )
        test_fail("%s %s at vIOPL %u: exinfo %#lx, wanted %s", user ?
                  "user" : "kernel", what, iopl, got,
                  fault ? "#GP(0)" : "none");
}

static void run(unsigned int iopl, bool kernel_fault, bool user_fault,
                unsigned long rflags)
{
    expect("cli", false, iopl, do_cli(0), kernel_fault);
    expect("sti", false, iopl, do_sti(0), kernel_fault);
    expect("outb", false, iopl, do_outb(0x80), kernel_fault);
    expect("cli", true, iopl, exec_user_flags(do_cli, 0, rflags),
           user_fault);
    expect("outb", true, iopl, exec_user_flags(do_outb, 0x80, rflags),
           user_fault);
}

static void test_hypercall(void)
{
    struct physdev_set_iopl op = { .iopl = 4 };
    unsigned int iopl;

    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iopl, &op, 0,
                       0, 0), -XEN_EINVAL);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iopl,
                       BAD_UNMAPPED, 0, 0, 0), -XEN_EFAULT);
#ifdef __x86_64__
    /* The command is an int: bit 32 changes nothing. */
    op.iopl = 0;
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op,
                       (1UL << 32) | PHYSDEVOP_set_iopl, &op, 0, 0, 0), 0);
#endif

    for ( iopl = 0; iopl <= 3; iopl++ )
    {
        check_rc(set_iopl(iopl), 0);
        run(iopl, iopl < 1, iopl < 3, 0x202);
    }
    check_rc(set_iopl(0), 0);
}

static void test_vmassist(void)
{
    unsigned int iopl;

    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                       VMASST_TYPE_architectural_iopl, 0, 0, 0), 0);
    for ( iopl = 0; iopl <= 3; iopl++ )
    {
        /* An iret with the IOPL in its flags sets it. */
        exec_user_flags(nop, 0, 0x202 | (iopl << 12));
        run(iopl, false, iopl < 3, 0x202 | (iopl << 12));
    }

    /* The bounce frame shows the virtual IOPL (the last run left 3). */
    check_rc(user_trap_record(), 0);
    check_rc(TRY("ud2", "i" (0)), EXINFO(X86_EXC_UD, 0));
    if ( (user_last_frame(false).rflags & 0x3000) != 0x3000 )
        test_fail("bounce frame rflags %#lx: IOPL not 3",
                  user_last_frame(false).rflags);
    check_rc(trap_init(), 0);
    check_rc(user_init(), 0);

    exec_user_flags(nop, 0, 0x202);
    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_disable,
                       VMASST_TYPE_architectural_iopl, 0, 0, 0), 0);
}

static uint8_t inb(unsigned int port)
{
    uint8_t v;

    asm volatile ( "inb %%dx, %%al" : "=a" (v) : "d" (port) );
    return v;
}

static uint32_t inl(unsigned int port)
{
    uint32_t v;

    asm volatile ( "inl %%dx, %%eax" : "=a" (v) : "d" (port) );
    return v;
}

static void outb(unsigned int port, uint8_t v)
{
    asm volatile ( "outb %%al, %%dx" :: "a" (v), "d" (port) );
}

static void outl(unsigned int port, uint32_t v)
{
    asm volatile ( "outl %%eax, %%dx" :: "a" (v), "d" (port) );
}

static void test_ports(void)
{
    uint8_t mask = shared_info->vcpu_info[0].evtchn_upcall_mask;

    check_rc(set_iopl(1), 0);
    check_rc(inb(0x80), 0xff);
    outb(0x70, 0x0b);
    check_rc(inb(0x70), 0x0b);
    outl(0xcf8, 0x80001234);
    check_rc(inl(0xcf8), 0x80001234);
    check_rc(inl(0xcfc), 0xffffffff);
    /* An allowed cli or sti leaves the event mask alone, as on Xen. */
    asm volatile ( "cli" );
    check_rc(shared_info->vcpu_info[0].evtchn_upcall_mask, mask);
    asm volatile ( "sti" );
    check_rc(shared_info->vcpu_info[0].evtchn_upcall_mask, mask);
    check_rc(set_iopl(0), 0);
}

static uint8_t iobitmap[8192];

static void test_iobitmap(void)
{
    struct physdev_set_iobitmap op;

    memset(iobitmap, 0xff, sizeof(iobitmap));
    iobitmap[0x80 / 8] &= ~1;           /* port 0x80 only */
    set_xen_guest_handle(op.bitmap, iobitmap);

    op.nr_ports = 65537;
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iobitmap,
                       &op, 0, 0, 0), -XEN_EINVAL);
    set_xen_guest_handle(op.bitmap, (uint8_t *)BAD_XEN);
    op.nr_ports = 0x100;
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iobitmap,
                       &op, 0, 0, 0), -XEN_EINVAL);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iobitmap,
                       BAD_UNMAPPED, 0, 0, 0), -XEN_EFAULT);

    set_xen_guest_handle(op.bitmap, iobitmap);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iobitmap,
                       &op, 0, 0, 0), 0);
    expect("outb 0x80 (bitmap)", false, 0, do_outb(0x80), false);
    expect("outb 0x81 (bitmap)", false, 0, do_outb(0x81), true);
    expect("outb 0x80 (bitmap)", true, 0, exec_user(do_outb, 0x80), false);
    expect("outb 0x81 (bitmap)", true, 0, exec_user(do_outb, 0x81), true);
    /* Ports past nr_ports: refused whatever the bitmap says. */
    iobitmap[0x100 / 8] = 0;
    expect("outb 0x100 (past nr_ports)", false, 0, do_outb(0x100), true);
    /* The last port it covers is in (Xen: port + bytes <= nr_ports). */
    iobitmap[0xff / 8] &= ~0x80;
    expect("outb 0xff (last of nr_ports)", false, 0, do_outb(0xff), false);
    expect("outb 0xff (last of nr_ports)", true, 0, exec_user(do_outb, 0xff),
           false);
    iobitmap[0xff / 8] |= 0x80;
    /* cli isn't I/O: the bitmap doesn't open it. */
    expect("cli (bitmap)", false, 0, do_cli(0), true);

    op.nr_ports = 0;
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_set_iobitmap,
                       &op, 0, 0, 0), 0);
    expect("outb 0x80 (no bitmap)", false, 0, do_outb(0x80), true);
}

static void test_other_ops(void)
{
    struct physdev_irq_status_query q = { .irq = 1 };
    struct physdev_map_pirq map = { .domid = DOMID_SELF };
    struct physdev_eoi eoi = { .irq = 1 };
    struct physdev_apic apic = { 0 };

    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_irq_status_query,
                       &q, 0, 0, 0), -XEN_EINVAL);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_eoi, &eoi, 0, 0,
                       0), -XEN_EINVAL);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_map_pirq, &map, 0,
                       0, 0), -XEN_EPERM);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_apic_read, &apic,
                       0, 0, 0), -XEN_EPERM);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, PHYSDEVOP_map_pirq,
                       BAD_UNMAPPED, 0, 0, 0), -XEN_EFAULT);
    check_rc(HYPERCALL(__HYPERVISOR_physdev_op, 99, NULL, 0, 0, 0),
             -XEN_ENOSYS);
}

void test_main(void)
{
    if ( map_shared_info() )
        return test_error("can't map shared_info");
    check_rc(user_init(), 0);
    test_hypercall();
    test_vmassist();
    test_ports();
    test_iobitmap();
    test_other_ops();
    test_success();
}
