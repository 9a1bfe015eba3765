/* SPDX-License-Identifier: GPL-2.0-only */
/* The domain builder's steps (pv/build/domain-build.c drives them). */
#ifndef PV_BUILD_H
#define PV_BUILD_H

#include "pv/domain.h"
#include "pv/build/elf.h"

struct boot_info;
struct boot_module;

/* The flags of every start-of-day PTE (bootstrap tables lose RW). */
#define GUEST_PTE (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED | \
                   _PAGE_DIRTY)

/* The start-of-day virtual layout, all guest virtual addresses. */
struct pv_layout {
    unsigned long v_start, v_end;       /* the whole initial mapping */
    unsigned long kern_start, kern_end;
    unsigned long initrd_start, initrd_end;
    unsigned long p2m_start, p2m_end;
    unsigned long start_info, xenstore, console;
    unsigned long pt_start, pt_end;     /* bootstrap page tables */
    unsigned long stack_end;            /* one page below it */
    unsigned long nr_pt;
    /*
     * INIT_P2M (as libxc does for a domU): the p2m is not in the initial
     * mapping but in the pfns after it (and after an unmapped initrd),
     * followed by the page tables that map it at p2m_va.
     */
    bool p2m_apart;
    unsigned long p2m_va;               /* start_info.mfn_list */
    unsigned long p2m_pfn, p2m_pages;   /* first_p2m_pfn; the list's pages */
    unsigned long p2m_tables;           /* L3/L2/L1 frames after them */
};

/* pv/build/build-kernel.c: module 0 as an ELF, a bzImage decompressed. */
struct pv_image {
    const uint8_t *data;
    size_t size;
    bool bzimage;
    unsigned long tmp_pfn, tmp_nr;      /* frames holding a decompressed one */
};
int pv_kernel_image(const struct boot_module *m, struct pv_image *img,
                    char *why, size_t why_size);
void pv_kernel_image_free(struct pv_image *img);

/* pv/build/build-memory.c */
void pv_alloc_guest_memory(struct domain *d, unsigned long nr_pages);
/* The guest's mfn for @pfn (< nr_pages), and @n of them from @pfn. */
unsigned long pv_p2m(const struct domain *d, unsigned long pfn);
void pv_p2m_copy(const struct domain *d, unsigned long pfn, unsigned long n,
                 unsigned long *dst);
void pv_write_p2m_page(const struct domain *d, unsigned long i, void *page);
void pv_load_kernel(struct domain *d, const struct pv_layout *l,
                    const struct pv_kernel *k, const uint8_t *image);
void pv_build_page_tables(struct domain *d, const struct pv_layout *l);
/* pv/build/build-p2m.c: INIT_P2M's layout and mapping. */
unsigned long pv_p2m_tables_needed(const struct pv_layout *l);
void pv_map_p2m(struct domain *d, const struct pv_layout *l);
/* Copy (or, with src NULL, zero) len bytes at initial-map address va. */
void pv_write_initial(const struct domain *d, const struct pv_layout *l,
                      unsigned long va, const uint8_t *src, size_t len);
/* The shim's mapping of guest virtual address @va of the initial map. */
void *pv_initial_va(const struct domain *d, const struct pv_layout *l,
                    unsigned long va);

/* pv/build/build-start-info.c */
void pv_alloc_shared_info(struct domain *d);
void pv_setup_start_info(struct domain *d, const struct pv_layout *l,
                         const struct pv_kernel *k,
                         const struct boot_info *bi,
                         const struct boot_module *initrd);
void pv_setup_vcpu(struct domain *d, const struct pv_layout *l,
                   const struct pv_kernel *k);

/* pv/build/build-compat.c: the guest is 32-bit (before building it). */
void pv_compat_domain_init(struct domain *d);

/* pv/build/features.c: the XENFEAT_* bits pvshim really provides. */
bool pv_feature_supported(unsigned int feature);
uint32_t pv_features_submap(unsigned int idx);
const char *pv_feature_name(unsigned int feature);

#endif /* PV_BUILD_H */
