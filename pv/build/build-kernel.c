/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest kernel as the builder reads it: module 0 itself if it is an
 * ELF, or, for a bzImage, its payload decompressed into temporary frames
 * that pv_kernel_image_free() returns once the domain is built (Xen's
 * bzimage_parse() + perform_gunzip() in the dom0 builder).
 */
#include "shim/lib.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/build/build.h"
#include "pv/build/bzimage.h"
#include "shim/boot-info.h"
#include "shim/console.h"
#include "shim/frame.h"

int pv_kernel_image(const struct boot_module *m, struct pv_image *img,
                    char *why, size_t why_size)
{
    struct pv_bzimage bz;
    const char *msg = NULL;
    unsigned long nr, pfn;
    int rc;

    memset(img, 0, sizeof(*img));
    img->data = __va(m->start);
    img->size = m->size;
    img->tmp_pfn = INVALID_PFN;

    rc = pv_bzimage_parse(img->data, img->size, &bz, &msg);
    if ( rc > 0 )
        return 0;                       /* no bzImage: the ELF itself */
    if ( rc < 0 )
    {
        snprintf(why, why_size, "%s", msg);
        return -1;
    }

    nr = ROUNDUP(bz.kernel_len, PAGE_SIZE) >> PAGE_SHIFT;
    pfn = frames_alloc(nr, 0, 0);
    if ( pfn == INVALID_PFN )
    {
        snprintf(why, why_size, "no room to decompress its %zu MiB kernel",
                 bz.kernel_len >> 20);
        return -1;
    }
    img->tmp_pfn = pfn;
    img->tmp_nr = nr;
    printk(" Dom1 kernel: bzImage (boot protocol %u.%02u), %s payload, "
           "%zu bytes -> %zu bytes\n", bz.version >> 8, bz.version & 0xff,
           decompress_name(bz.format), bz.stream_len, bz.kernel_len);
    if ( pv_bzimage_decompress(&bz, __va(pfn << PAGE_SHIFT), &msg) )
    {
        snprintf(why, why_size, "its %s payload: %s",
                 decompress_name(bz.format), msg);
        pv_kernel_image_free(img);
        return -1;
    }
    img->data = __va(pfn << PAGE_SHIFT);
    img->size = bz.kernel_len;
    img->bzimage = true;
    return 0;
}

void pv_kernel_image_free(struct pv_image *img)
{
    if ( img->tmp_pfn == INVALID_PFN )
        return;
    if ( frames_free(img->tmp_pfn, img->tmp_nr) )
        printk(XENLOG_WARNING "bzImage: freeing %lu frames at %#lx failed\n",
               img->tmp_nr, img->tmp_pfn);
    img->tmp_pfn = INVALID_PFN;
}
