/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The alternatives at boot (arch/x86/alternative.h): the shim's text is
 * read-only and executable, so the sites are written through the direct
 * map's alias of the image, with interrupts off, before any other CPU
 * runs.  Then a serialising instruction, so this CPU fetches the new
 * bytes (SDM vol. 3A, 8.1.3, cross-modifying code on one processor).
 * An NMI in those microseconds would run the IDT entry half written;
 * the shim arms no NMI source before the guest runs (no watchdog), where
 * Xen, patching later, points its NMI callback at a stub meanwhile.
 */
#include "arch/x86/alternative.h"
#include "arch/x86/cpu.h"
#include "arch/x86/irq.h"
#include "arch/x86/layout.h"
#include "arch/x86/spec-ctrl.h"
#include "arch/x86/uaccess.h"
#include "shim/console.h"
#include "shim/panic.h"

extern const struct alt_instr __alt_start[], __alt_end[];
extern const char __text_start[], __text_end[];

static uint8_t *text_alias(uint8_t *addr)
{
    if ( (char *)addr < __text_start || (char *)addr >= __text_end )
        panic("alternatives: site %p is not in the text", addr);
    return __va(__pa_image(addr));
}

void alternatives_init(void)
{
    unsigned long flags;
    uint32_t a, b, c, d;
    int n;
    unsigned int cond = spec_ctrl_flags | (smap_enabled ? ALTF_SMAP : 0);

    local_irq_save(flags);
    n = alt_apply(__alt_start, __alt_end, cond, text_alias);
    cpuid_count(0, 0, &a, &b, &c, &d);      /* serialise */
    local_irq_restore(flags);
    if ( n < 0 )
        panic("alternatives: a malformed entry in .altinstructions");
    printk("alternatives: %d sites patched (%lu entries)\n", n,
           (unsigned long)(__alt_end - __alt_start));
}
