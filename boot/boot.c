/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The first C code: find out which protocol booted us, turn what it said
 * into struct boot_info, and hand over to start_shim().
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

void boot_copy_string(char *dst, size_t size, uint64_t paddr,
                      char *name, size_t name_size, bool *truncated)
{
    const char *s = boot_ptr(paddr, 1);
    size_t n, w;

    dst[0] = '\0';
    if ( name_size )
        name[0] = '\0';
    if ( truncated )
        *truncated = false;
    if ( !s )
        return;
    /* Never read past the boot mapping, whatever the string's length. */
    n = strnlen(s, MIN((4ULL << 30) - paddr, (uint64_t)16 << 10));
    while ( n && *s == ' ' )
        s++, n--;
    if ( name_size )
    {
        for ( w = 0; w < n && s[w] != ' '; w++ )
            ;
        strlcpy(name, s, MIN(w + 1, name_size));
        s += w, n -= w;
        while ( n && *s == ' ' )
            s++, n--;
    }
    if ( truncated )
        *truncated = n >= size;
    n = MIN(n, size - 1);
    memcpy(dst, s, n);
    dst[n] = '\0';
}

void boot_set_loader(struct boot_info *bi, uint64_t name_paddr)
{
    boot_copy_string(bi->loader, sizeof(bi->loader), name_paddr, NULL, 0,
                     NULL);
    bi->image_names = strncmp(bi->loader, "GRUB 2", 6);
}

void boot_add_module(struct boot_info *bi, uint64_t start, uint64_t end,
                     uint64_t cmdline_paddr)
{
    struct boot_module *m;

    if ( bi->nr_modules == BOOT_MODULES_MAX )
    {
        bi->modules_dropped++;
        return;
    }
    m = &bi->mods[bi->nr_modules++];
    m->start = start;
    m->size = end > start ? end - start : 0;
    boot_copy_string(m->cmdline, sizeof(m->cmdline), cmdline_paddr,
                     m->name, bi->image_names ? sizeof(m->name) : 0, NULL);
}

/*
 * As in Xen, "shim options -- guest options": what follows " -- " is for
 * the guest kernel, after its module's own command line.
 */
static void split_guest_extra(struct boot_info *bi)
{
    char *sep;

    for ( sep = bi->cmdline; (sep = strchr(sep, '-')); sep++ )
        if ( sep[1] == '-' && (sep == bi->cmdline || sep[-1] == ' ') &&
             (sep[2] == ' ' || sep[2] == '\0') )
        {
            strlcpy(bi->guest_extra, sep[2] ? sep + 3 : "",
                    sizeof(bi->guest_extra));
            *sep = '\0';
            return;
        }
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
    split_guest_extra(bi);

    start_shim(bi);
}
