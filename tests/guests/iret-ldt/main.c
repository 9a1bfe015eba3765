/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret to a code selector in the guest's LDT.  The LDT is
 * mapped on demand, so the hypervisor's own iretq takes the first #PF on
 * it: the page is mapped and the iret completes, as on Xen.  With the
 * LDT frame still writable the page can't be mapped, and the guest gets
 * the #PF at its LDT's address, at the frame's %rip.  Never a crash of
 * the hypervisor.
 */
#include "guest.h"
#include "iret-to.h"
#include "mm.h"

const char test_title[] = "iret to an LDT code selector";

#ifdef __x86_64__
#define LDT_CODE    0x00affa000000ffffUL    /* DPL 3, L, present */
#define LDT_CS      0x4                     /* LDT entry 0, RPL 0: kernel */
/* The handler's frame: %rcx, %r11, [error code], %rip, %cs. */
#define PF_IP       3
#define INT_IP      2
#define INT_CS      3
#define CS_MASK     (~0UL)
#else
#define LDT_CODE    0x00cfba000000ffffULL   /* 32-bit, DPL 1, present */
#define LDT_CS      0x5                     /* LDT entry 0, RPL 1: kernel */
/* The compat frame: [error code], %eip, %cs (mask in bits 16-23). */
#define PF_IP       1
#define INT_IP      0
#define INT_CS      1
#define CS_MASK     0xffffUL
#endif

static uint8_t win[PAGE_SIZE] __page_aligned;

asm ( ".pushsection .text\n"
      "ldt_code: int $0x22\n"
      ".popsection" );
extern const char ldt_code[];

void test_main(void)
{
    /* A #GP (the selector refused) comes back too: a failure, not a
     * crash. */
    trap_info_t t[4] = {
        { .vector = 0x22, .flags = 3, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)back_entry },
        { .vector = X86_EXC_PF, .flags = 0, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)back_entry },
        { .vector = X86_EXC_GP, .flags = 0, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)back_entry },
    };
    unsigned long ldt = alloc_frame();

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    frame_set_pte(ldt, 0, LDT_CODE);
    check_rc(hypercall_set_trap_table(t), 0);

    /* Writable: the LDT page can't be mapped; #PF at the LDT. */
    check_rc(map_frame_at((unsigned long)win, ldt, PTE_RW), 0);
    check_rc(mmuext_set_ldt((unsigned long)win, 1), 0);
    iret_to((unsigned long)ldt_code, LDT_CS);
    if ( back_frame[PF_IP] != (unsigned long)ldt_code ||
         shared_info->vcpu_info[0].arch.cr2 != (unsigned long)win )
        test_fail("writable LDT: no #PF at it: frame rip %#lx ec %#lx, "
                  "cr2 %#lx",
                  back_frame[PF_IP], back_frame[PF_IP - 1],
                  shared_info->vcpu_info[0].arch.cr2);

    /* Read-only: mapped on the iret's own fault, and it runs there. */
    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(map_frame_at((unsigned long)win, ldt, PTE_RO), 0);
    check_rc(mmuext_set_ldt((unsigned long)win, 1), 0);
    memset(back_frame, 0, sizeof(back_frame));
    iret_to((unsigned long)ldt_code, LDT_CS);
    if ( back_frame[INT_IP] != (unsigned long)ldt_code + 2 ||
         (back_frame[INT_CS] & CS_MASK) != LDT_CS )
        test_fail("LDT code selector: int $0x22 frame rip %#lx cs %#lx",
                  back_frame[INT_IP], back_frame[INT_CS]);

    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(remap_initial((unsigned long)win), 0);
    check_rc(trap_init(), 0);
    test_success();
}
