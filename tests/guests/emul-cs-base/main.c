/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A privileged instruction in a 32-bit code segment whose base isn't 0:
 * the CPU runs the bytes at base + %eip, but an emulator that reads at
 * %eip decodes others, which a process choosing its LDT segment's base
 * could aim at the kernel's memory.  The shim emulates only in flat code
 * segments (every PV kernel's are): here the CPU runs `int $0x80` (a
 * #GP, the gate not the guest's to use) and the bytes at %eip say
 * `int $0x23`, whose handler the guest kernel may reach.  The #GP comes
 * back as it came, never the int $0x23.  32-bit guests: their kernel
 * runs in ring 1 and may use such a segment itself.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "emulation: never at %eip of a based code segment";

#ifdef __x86_64__
void test_main(void)
{
    test_skip("a 32-bit kernel's LDT code segment (ring 1)");
}
#else
#define BASE        0xfffffffeu     /* seen_code - 2: run_code */
#define LDT_CS      0x5             /* LDT entry 0, RPL 1 */
/* 32-bit code, DPL 1, present, 4 GiB, based at BASE. */
#define LDT_CODE    (0x00cfba000000ffffULL | (uint64_t)(BASE & 0xffffff) << 16 | \
                     (uint64_t)(BASE >> 24) << 56)

static uint8_t win[PAGE_SIZE] __page_aligned;

unsigned long back_frame[8], back_rsp;
void back_entry(void);
asm ( ".pushsection .text\n"
      "back_entry:\n\t"
      ".irp w, 0, 1, 2, 3, 4, 5, 6, 7\n\t"
      "mov \\w * 4(%esp), %eax; mov %eax, back_frame + \\w * 4\n\t"
      ".endr\n\t"
      "mov back_rsp, %esp\n\t"
      "ret\n"
      "run_code: int $0x80\n"         /* what the CPU runs */
      "seen_code: int $0x23\n"        /* what is at %eip */
      ".popsection" );
extern const char run_code[], seen_code[];

static long set_ldt(unsigned long va, unsigned int ents)
{
    mmuext_op_t op = {
        .cmd = MMUEXT_SET_LDT, .arg1.linear_addr = va, .arg2.nr_ents = ents,
    };

    return hypercall_mmuext_op(&op, 1, NULL, DOMID_SELF);
}

/* compat_iret to @eip in @cs, ring 1, on the rest of stack[]. */
static void iret_to(unsigned long eip, unsigned long cs)
{
    static unsigned long stack[1024];
    unsigned long *frame = &stack[512];

    frame[0] = eip;
    frame[1] = cs;
    frame[2] = 0x202;
    asm volatile ( "push %%ebp\n\t"
                   "push $1f\n\t"
                   "mov %%esp, back_rsp\n\t"
                   "mov %0, %%esp\n\t"
                   "jmp hypercall_page + %c1\n"
                   "1: pop %%ebp"
                   :: "i" (&stack[512]), "i" (__HYPERVISOR_iret * 32)
                   : "eax", "ebx", "ecx", "edx", "esi", "edi", "memory" );
}

void test_main(void)
{
    trap_info_t t[3] = {
        { .vector = 0x23, .flags = 1, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)back_entry },
        { .vector = X86_EXC_GP, .flags = 0, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)back_entry },
    };
    unsigned long ldt = alloc_frame();

    if ( (unsigned long)run_code != (unsigned long)seen_code + BASE )
        return test_error("run_code %p, seen_code %p", run_code, seen_code);
    frame_set_pte(ldt, 0, LDT_CODE);
    check_rc(map_frame_at((unsigned long)win, ldt, PTE_RO), 0);
    check_rc(set_ldt((unsigned long)win, 1), 0);
    check_rc(hypercall_set_trap_table(t), 0);

    iret_to((unsigned long)seen_code, LDT_CS);
    /*
     * #GP(0x80 << 3 | IDT): [error code], %eip, %cs.  QEMU's TCG gives
     * 0x80 << 4 | IDT in long mode (its 16-byte gates: DESIGN.md).
     */
    if ( back_frame[0] == (unsigned long)seen_code + 2 )
        test_fail("the shim emulated the bytes at %%eip: int $0x23 ran");
    else if ( (back_frame[0] != (0x80 << 3 | 2) &&
               back_frame[0] != (0x80 << 4 | 2)) ||
              back_frame[1] != (unsigned long)seen_code ||
              (back_frame[2] & 0xffff) != LDT_CS )
        test_fail("frame %#lx %#lx %#lx: wanted #GP(%#x) at %p in %#x",
                  back_frame[0], back_frame[1], back_frame[2], 0x80 << 3 | 2,
                  seen_code, LDT_CS);

    check_rc(set_ldt(0, 0), 0);
    check_rc(remap_initial((unsigned long)win), 0);
    check_rc(trap_init(), 0);
    test_success();
}
#endif
