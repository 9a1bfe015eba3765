/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ioremap(): device registers mapped uncached (PCD|PWT: UC with the
 * default PAT) and non-executable in the DEVMMIO area, bottom up.
 */
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "drivers/ioremap.h"
#include "shim/console.h"
#include "shim/frame.h"

static unsigned long devmmio_used;

void *ioremap(uint64_t pa, uint64_t size)
{
    uint64_t base = ROUNDDOWN(pa, PAGE_SIZE);
    uint64_t len = ROUNDUP(pa + size, PAGE_SIZE) - base;
    unsigned long va = DEVMMIO_VIRT_START + devmmio_used;

    if ( !size || pa + size < pa || len > DEVMMIO_VIRT_SIZE - devmmio_used )
    {
        printk(XENLOG_WARNING "ioremap: no room for %#lx bytes at %#lx\n",
               (unsigned long)size, (unsigned long)pa);
        return NULL;
    }
    map_pages(va, base, len,
              _PAGE_RW | _PAGE_PCD | _PAGE_PWT | page_nx_bit());
    devmmio_used += len;
    return (void *)(va + (pa - base));
}
