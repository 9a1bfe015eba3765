/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PVH boot (xen/arch-x86/hvm/start_info.h) into struct boot_info.  The
 * command line is ours alone (no image name in front), as on Xen.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/arch-x86/hvm/start_info.h>
#include "boot/boot.h"
#include "shim/panic.h"

void pvh_parse(struct boot_info *bi, uint32_t info)
{
    const struct hvm_start_info *si = boot_ptr(info, sizeof(*si));
    const struct hvm_modlist_entry *mod;
    const struct hvm_memmap_table_entry *mm;
    unsigned int i;

    bi->protocol = "pvh";
    if ( !si || si->magic != XEN_HVM_START_MAGIC_VALUE )
        panic("pvh: no hvm_start_info at %#x", info);

    boot_copy_string(bi->cmdline, sizeof(bi->cmdline), si->cmdline_paddr,
                     NULL, 0, &bi->cmdline_truncated);
    bi->rsdp = si->rsdp_paddr;

    mod = boot_ptr(si->modlist_paddr, si->nr_modules * sizeof(*mod));
    for ( i = 0; mod && i < si->nr_modules; i++ )
        boot_add_module(bi, mod[i].paddr, mod[i].paddr + mod[i].size,
                        mod[i].cmdline_paddr);

    if ( si->version < 1 )
        return;
    mm = boot_ptr(si->memmap_paddr, si->memmap_entries * sizeof(*mm));
    for ( i = 0; mm && i < si->memmap_entries; i++ )
        boot_add_memory(bi, mm[i].addr, mm[i].size, mm[i].type);
}
