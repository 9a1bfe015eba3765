/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers the protocol parsers share to fill struct boot_info: strings,
 * modules and the loader's name.  Pure logic over boot_ptr(), so the
 * parsers can be tested on the host against fake boot memory.
 */
#include "boot/boot.h"

/*
 * How many bytes from @paddr (up to @max) boot_ptr() vouches for: a string
 * must not be read past them, whether or not it is terminated in them.
 */
static size_t boot_mapped(uint64_t paddr, size_t max)
{
    size_t lo = 0, hi = max, mid;

    while ( lo < hi )
    {
        mid = hi - (hi - lo) / 2;
        if ( boot_ptr(paddr, mid) )
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
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
    n = strnlen(s, boot_mapped(paddr, 16 << 10));
    while ( n && *s == ' ' )
        s++, n--;
    if ( name_size )
    {
        for ( w = 0; w < n && s[w] != ' '; w++ )
            ;
        /* Not strlcpy(): that would read on to the string's end. */
        memcpy(name, s, MIN(w, name_size - 1));
        name[MIN(w, name_size - 1)] = '\0';
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
void boot_split_guest_extra(struct boot_info *bi)
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

void boot_add_memory(struct boot_info *bi, uint64_t addr, uint64_t size,
                     uint32_t type)
{
    if ( size && memmap_add(&bi->memmap, addr, size, type) )
        bi->memmap_dropped++;
}
