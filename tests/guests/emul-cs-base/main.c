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
#include "iret-to.h"
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

asm ( ".pushsection .text\n"
      "run_code: int $0x80\n"         /* what the CPU runs */
      "seen_code: int $0x23\n"        /* what is at %eip */
      ".popsection" );
extern const char run_code[], seen_code[];

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
    check_rc(mmuext_set_ldt((unsigned long)win, 1), 0);
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

    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(remap_initial((unsigned long)win), 0);
    check_rc(trap_init(), 0);
    test_success();
}
#endif
