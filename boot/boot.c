/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The first C code: find out which protocol booted us, turn what it said
 * into struct boot_info, and hand over to start_shim().  boot_ptr() is the
 * one place that turns a boot-time physical address into a pointer.
 */
#include <multiboot/multiboot.h>
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/arch-x86/hvm/start_info.h>
#include "boot/boot.h"
#include "boot/multiboot2.h"
#include "arch/x86/layout.h"
#include "shim/console.h"
#include "shim/panic.h"

struct boot_info boot_info;

const void *boot_ptr(uint64_t paddr, uint64_t len)
{
    if ( !paddr || paddr + len < paddr || paddr + len > (4ULL << 30) )
        return NULL;
    return __va(paddr);
}

/* Called from boot/head.S with the protocol's magic and info pointer. */
noreturn void boot_c_entry(uint32_t magic, uint32_t info);
noreturn void boot_c_entry(uint32_t magic, uint32_t info)
{
    struct boot_info *bi = &boot_info;

    console_init_early();

    switch ( magic )
    {
    case MULTIBOOT_BOOTLOADER_MAGIC:
        multiboot1_parse(bi, info);
        break;
    case MB2_BOOTLOADER_MAGIC:
        multiboot2_parse(bi, info);
        break;
    case XEN_HVM_START_MAGIC_VALUE:
        pvh_parse(bi, info);
        break;
    default:
        panic("unknown boot protocol (magic %#x, info %#x)", magic, info);
    }
    boot_split_guest_extra(bi);

    start_shim(bi);
}
