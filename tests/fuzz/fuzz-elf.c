/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the PV kernel image parser (pv/elf*.c): any input
 * is either refused with a message or yields a kernel that keeps every
 * promise pv/build/elf.h makes; ASan/UBSan watch every byte it reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pv/build/elf.c"
#include "pv/build/elf-notes.c"
#include "pv/build/elf-legacy.c"
#include "pv/build/elf-symtab.c"

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "fuzz-elf: %s:%d: %s\n", __FILE__, __LINE__,       \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

/* BSD_SYMTAB: a table after the image, from the file, or a reason. */
static void check_symtab(const struct pv_kernel *k, size_t size)
{
    const struct pv_elf_symtab *t = &k->symtab;
    uint64_t r = k->compat ? 4 : 8;
    uint32_t word;

    if ( !t->loaded )
    {
        FUZZ_ASSERT(!k->bsd_symtab || (k->symtab_why && k->symtab_why[0]));
        return;
    }
    FUZZ_ASSERT(k->bsd_symtab);
    FUZZ_ASSERT(t->start >= k->vend && t->start - k->vend < r);
    FUZZ_ASSERT(!(t->start % r) && !(t->str_dest % r) && !(t->end % r));
    FUZZ_ASSERT(t->hdr_len <= PV_SYMTAB_HDR_MAX);
    FUZZ_ASSERT(t->sym_dest == t->start + t->hdr_len);
    FUZZ_ASSERT(t->sym_off <= size && t->sym_size <= size - t->sym_off);
    FUZZ_ASSERT(t->str_off <= size && t->str_size <= size - t->str_off);
    FUZZ_ASSERT(t->str_dest >= t->sym_dest + t->sym_size);
    FUZZ_ASSERT(t->str_dest + t->str_size <= t->end);
    FUZZ_ASSERT(t->end > t->start);
    FUZZ_ASSERT(t->end <= (k->compat ? PV_COMPAT_VIRT_START : 1ULL << 47) ||
                t->start >= __HYPERVISOR_VIRT_END);
    memcpy(&word, t->hdr, 4);
    FUZZ_ASSERT(word == t->str_dest + t->str_size - t->start - 4);
}

static void check_kernel(const struct pv_kernel *k, size_t size)
{
    unsigned int i, j;

    FUZZ_ASSERT(k->nr_segments >= 1 && k->nr_segments <= PV_ELF_MAX_SEGMENTS);
    FUZZ_ASSERT(k->vstart < k->vend || k->vstart == k->vend);
    FUZZ_ASSERT(k->vstart <= k->entry && k->entry < k->vend);
    FUZZ_ASSERT(k->vend - k->vstart <= PV_ELF_MAX_SPAN);
    FUZZ_ASSERT(k->vstart >= k->virt_base);
    FUZZ_ASSERT(!(k->virt_base & 0xfff));
    FUZZ_ASSERT(k->has_xen_notes || k->has_legacy_guest_string);
    FUZZ_ASSERT(k->hypercall_page == PV_ELF_UNSET ||
           (!(k->hypercall_page & 0xfff) && k->hypercall_page >= k->vstart &&
            k->hypercall_page < k->vend));
    FUZZ_ASSERT(k->init_p2m == PV_ELF_UNSET || k->init_p2m < k->vstart ||
           k->init_p2m >= k->vend);

    for ( i = 0; i < k->nr_segments; i++ )
    {
        const struct pv_elf_segment *s = &k->seg[i];

        FUZZ_ASSERT(s->offset <= size && s->filesz <= size - s->offset);
        FUZZ_ASSERT(s->filesz <= s->memsz);
        FUZZ_ASSERT(s->dest + s->memsz >= s->dest);
        FUZZ_ASSERT(s->dest >= k->vstart && s->dest + s->memsz <= k->vend);
        FUZZ_ASSERT(s->dest + s->memsz <= (1ULL << 47) ||
               s->dest >= __HYPERVISOR_VIRT_END);
        FUZZ_ASSERT(s->dest - k->virt_base == s->paddr - k->paddr_offset);
        for ( j = 0; j < i; j++ )
            FUZZ_ASSERT(!s->memsz || !k->seg[j].memsz ||
                   s->dest >= k->seg[j].dest + k->seg[j].memsz ||
                   k->seg[j].dest >= s->dest + s->memsz);
    }

    check_symtab(k, size);

    for ( i = 0; i < 40; i++ )
        FUZZ_ASSERT(!pv_elf_feature_required(k, i) ||
                    pv_elf_feature_supported(k, i));

    FUZZ_ASSERT(memchr(k->guest_os, 0, sizeof(k->guest_os)));
    FUZZ_ASSERT(memchr(k->guest_version, 0, sizeof(k->guest_version)));
    FUZZ_ASSERT(memchr(k->xen_version, 0, sizeof(k->xen_version)));
    FUZZ_ASSERT(memchr(k->loader, 0, sizeof(k->loader)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pv_kernel k;
    const char *why = NULL;
    int rc = pv_elf_parse(data, size, &k, &why);

    if ( rc )
    {
        FUZZ_ASSERT(rc < 0 && why && why[0]);
        FUZZ_ASSERT(strnlen(why, 128) < 128);
    }
    else
    {
        FUZZ_ASSERT(!why);
        check_kernel(&k, size);
    }

    return 0;
}
