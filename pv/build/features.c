/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The XENFEAT_* bits (xen/features.h) pvshim provides, for
 * XENVER_get_features and for refusing kernels that require others.
 * A bit is added here only with the code that makes it true.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/features.h>
#include "pv/build/build.h"

/*
 * Xen gives every PV guest mmu_pt_update_preserve_ad, highmem_assist
 * (MMUEXT_COPY_PAGE / CLEAR_PAGE, mmuext.c) and gnttab_map_avail_bits;
 * Linux 6.0 and later refuse to boot without the first and the last.  The
 * last holds vacuously while there are no grant tables: whoever adds
 * GNTTABOP_map_grant_ref must keep the guest's AVAIL bits in the PTEs it
 * writes, as Xen's create_grant_pv_mapping() does.
 */
static const uint32_t supported[XENFEAT_NR_SUBMAPS] = {
    [0] = (1u << XENFEAT_writable_page_tables) |
          (1u << XENFEAT_mmu_pt_update_preserve_ad) |
          (1u << XENFEAT_highmem_assist) |
          (1u << XENFEAT_gnttab_map_avail_bits),
};

uint32_t pv_features_submap(unsigned int idx)
{
    return idx < XENFEAT_NR_SUBMAPS ? supported[idx] : 0;
}

bool pv_feature_supported(unsigned int f)
{
    return pv_features_submap(f / 32) & (1u << (f % 32));
}

const char *pv_feature_name(unsigned int f)
{
    static const char *const names[] = {
        [XENFEAT_writable_page_tables] = "writable_page_tables",
        [XENFEAT_writable_descriptor_tables] = "writable_descriptor_tables",
        [XENFEAT_auto_translated_physmap] = "auto_translated_physmap",
        [XENFEAT_supervisor_mode_kernel] = "supervisor_mode_kernel",
        [XENFEAT_pae_pgdir_above_4gb] = "pae_pgdir_above_4gb",
        [XENFEAT_mmu_pt_update_preserve_ad] = "mmu_pt_update_preserve_ad",
        [XENFEAT_highmem_assist] = "highmem_assist",
        [XENFEAT_gnttab_map_avail_bits] = "gnttab_map_avail_bits",
        [XENFEAT_hvm_callback_vector] = "hvm_callback_vector",
        [XENFEAT_hvm_safe_pvclock] = "hvm_safe_pvclock",
        [XENFEAT_hvm_pirqs] = "hvm_pirqs",
        [XENFEAT_dom0] = "dom0",
    };

    return f < ARRAY_SIZE(names) && names[f] ? names[f] : "unknown";
}
