/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An AP's per-CPU area (arch/x86/layout.h): what CPU 0 has in the image,
 * in frames of their own behind one virtual range in the shim's slots.
 */
#include "arch/x86/desc.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "shim/frame.h"
#include "shim/softirq.h"

#define GDT_PAGES           ((GDT_ENTRIES * 8) / PAGE_SIZE)

BUILD_BUG_ON(STACK_SIZE + (GDT_PAGES + 1) * PAGE_SIZE > PERCPU_VIRT_SIZE);

/*
 * CPU @cpu's area (layout.h): stack block with its guard page unmapped,
 * GDT, struct percpu; cpu_info filled in, so the AP knows who it is from
 * its first instruction on this stack.
 */
struct percpu *percpu_alloc(unsigned int cpu)
{
    unsigned long va = PERCPU_VIRT_START + cpu * PERCPU_VIRT_SIZE;
    unsigned int i, pages = STACK_SIZE / PAGE_SIZE + GDT_PAGES + 1;
    struct percpu *pc;
    struct cpu_info *ci;

    if ( percpu_area[cpu] )
        return percpu_area[cpu];        /* a failed attempt's, unused */
    for ( i = 0; i < pages; i++ )
    {
        unsigned long pfn;

        if ( i == STACK_GUARD_PAGE )
            continue;
        if ( (pfn = frame_alloc()) == INVALID_PFN )
            return NULL;
        clear_page(__va(pfn << PAGE_SHIFT));
        map_pages(va + i * PAGE_SIZE, pfn << PAGE_SHIFT, PAGE_SIZE, _PAGE_RW);
    }
    pc = (struct percpu *)(va + STACK_SIZE + GDT_PAGES * PAGE_SIZE);
    pc->cpu_id = cpu;
    pc->stack = (void *)va;
    pc->gdt = (uint64_t *)(va + STACK_SIZE);
    ci = (struct cpu_info *)(va + STACK_SIZE) - 1;
    ci->percpu = pc;
    ci->cpu_id = cpu;
    percpu_area[cpu] = pc;
    return pc;
}
