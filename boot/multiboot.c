/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Multiboot1 (QEMU -kernel, multiboot spec 0.6.96 section 3.3) and
 * multiboot2 (GRUB, spec 2.0 section 3.6) into struct boot_info.
 */
#include <multiboot/multiboot.h>
#include "boot/boot.h"
#include "boot/multiboot2.h"
#include "shim/panic.h"

void multiboot1_parse(struct boot_info *bi, uint32_t info)
{
    const multiboot_info_t *mbi = boot_ptr(info, sizeof(*mbi));
    unsigned int i;

    bi->protocol = "multiboot1";
    if ( !mbi )
        panic("multiboot1: info structure at %#x is unreachable", info);

    bi->image_names = true;
    if ( mbi->flags & MULTIBOOT_INFO_BOOT_LOADER_NAME )
        boot_set_loader(bi, mbi->boot_loader_name);
    if ( mbi->flags & MULTIBOOT_INFO_CMDLINE )
        boot_copy_string(bi->cmdline, sizeof(bi->cmdline), mbi->cmdline,
                         bi->image, bi->image_names ? sizeof(bi->image) : 0,
                         &bi->cmdline_truncated);

    if ( mbi->flags & MULTIBOOT_INFO_MODS )
    {
        const multiboot_module_t *mod =
            boot_ptr(mbi->mods_addr, mbi->mods_count * sizeof(*mod));

        for ( i = 0; mod && i < mbi->mods_count; i++ )
            boot_add_module(bi, mod[i].mod_start, mod[i].mod_end,
                            mod[i].cmdline);
    }

    if ( mbi->flags & MULTIBOOT_INFO_MEM_MAP )
    {
        const uint8_t *p = boot_ptr(mbi->mmap_addr, mbi->mmap_length);
        const uint8_t *end = p ? p + mbi->mmap_length : NULL;

        /* Each entry's size field excludes itself. */
        while ( p && p + sizeof(multiboot_memory_map_t) <= end )
        {
            const multiboot_memory_map_t *e = (const void *)p;

            boot_add_memory(bi, e->addr, e->len, e->type);
            if ( e->size < 20 )
                break;
            p += e->size + sizeof(e->size);
        }
    }
    else if ( mbi->flags & MULTIBOOT_INFO_MEMORY )
    {
        boot_add_memory(bi, 0, (uint64_t)mbi->mem_lower << 10,
                   MEMMAP_RAM);
        boot_add_memory(bi, 1 << 20, (uint64_t)mbi->mem_upper << 10,
                   MEMMAP_RAM);
    }
}

static void mb2_tag(struct boot_info *bi, const struct mb2_tag *tag,
                    uint64_t paddr)
{
    const struct mb2_tag_module *mod = (const void *)tag;
    const struct mb2_tag_mmap *mm = (const void *)tag;
    const uint8_t *p, *end = (const uint8_t *)tag + tag->size;

    switch ( tag->type )
    {
    case MB2_TAG_CMDLINE:
        boot_copy_string(bi->cmdline, sizeof(bi->cmdline), paddr + 8,
                         bi->image, bi->image_names ? sizeof(bi->image) : 0,
                         &bi->cmdline_truncated);
        break;
    case MB2_TAG_MODULE:
        if ( tag->size > sizeof(*mod) )
            boot_add_module(bi, mod->mod_start, mod->mod_end, paddr + 16);
        break;
    case MB2_TAG_MMAP:
        if ( tag->size < sizeof(*mm) || mm->entry_size < 24 )
            break;
        for ( p = (const uint8_t *)(mm + 1); p + 24 <= end;
              p += mm->entry_size )
        {
            const struct mb2_mmap_entry *e = (const void *)p;

            boot_add_memory(bi, e->addr, e->len, e->type);
        }
        break;
    case MB2_TAG_ACPI_OLD:
    case MB2_TAG_ACPI_NEW:
        /* The tag holds a copy of the RSDP (20 bytes at least). */
        if ( tag->size >= 8 + 20 &&
             (!bi->rsdp || tag->type == MB2_TAG_ACPI_NEW) )
            bi->rsdp = paddr + 8;
        break;
    }
}

static void mb2_for_each_tag(struct boot_info *bi, const struct mb2_info *mbi,
                             uint32_t info, bool loader_name)
{
    uint64_t off;       /* 64-bit: off + tag->size must not wrap */
    const struct mb2_tag *tag;

    for ( off = 8; off + 8 <= mbi->total_size;
          off = ROUNDUP(off + tag->size, 8) )
    {
        tag = (const void *)((const uint8_t *)mbi + off);
        if ( tag->type == MB2_TAG_END || tag->size < 8 ||
             off + tag->size > mbi->total_size )
            break;
        if ( (tag->type == MB2_TAG_LOADER_NAME) == loader_name )
        {
            if ( loader_name )
                boot_set_loader(bi, (uint64_t)info + off + 8);
            else
                mb2_tag(bi, tag, (uint64_t)info + off);
        }
    }
}

void multiboot2_parse(struct boot_info *bi, uint32_t info)
{
    const struct mb2_info *mbi = boot_ptr(info, sizeof(*mbi));

    bi->protocol = "multiboot2";
    if ( !mbi || !boot_ptr(info, mbi->total_size) )
        panic("multiboot2: info structure at %#x is unreachable", info);

    /* The loader's name decides how to read the strings: find it first. */
    bi->image_names = true;
    mb2_for_each_tag(bi, mbi, info, true);
    mb2_for_each_tag(bi, mbi, info, false);
}
