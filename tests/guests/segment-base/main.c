/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_set_segment_base as Xen's do_set_segment_base(): FS,
 * kernel GS and user GS bases (-EINVAL if non-canonical), and the user
 * %gs selector, where a selector that can't be loaded silently loads NUL.
 * The bases are checked through %fs: and %gs: reads of our own pages; the
 * user GS base, inactive in kernel mode, through rdmsr if it is emulated.
 * A selector in the LDT is loaded as Xen loads it, the LDT's page mapped
 * on the way.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "set_segment_base: FS/GS bases, user %gs selector";

#define MSR_SHADOW_GS_BASE 0xc0000102

static unsigned long fs_page[512] __attribute__((aligned(PAGE_SIZE)));
static unsigned long gs_page[512] __attribute__((aligned(PAGE_SIZE)));
static unsigned long user_page[512] __attribute__((aligned(PAGE_SIZE)));

static long set_base(unsigned long which, unsigned long base)
{
    return HYPERCALL(__HYPERVISOR_set_segment_base, which, base, 0, 0, 0);
}

static unsigned long read_fs0(void)
{
    unsigned long v;

    asm volatile ( "mov %%fs:0, %0" : "=r" (v) :: "memory" );
    return v;
}

static unsigned long read_gs0(void)
{
    unsigned long v;

    asm volatile ( "mov %%gs:0, %0" : "=r" (v) :: "memory" );
    return v;
}

static unsigned int gs_sel(void)
{
    unsigned int sel;

    asm volatile ( "mov %%gs, %0" : "=r" (sel) );
    return sel & 0xffff;
}

static void check_user_base(const char *what, unsigned long want)
{
    uint64_t val;

    if ( rdmsr_safe(MSR_SHADOW_GS_BASE, &val) )
        printf("  %s: user GS base not checked (no rdmsr)\n", what);
    else if ( val != want )
        test_fail("%s: user GS base %#lx, expected %#lx", what, val, want);
}

static void test_fs(void)
{
    check_rc(set_base(SEGBASE_FS, (unsigned long)fs_page), 0);
    check_rc(read_fs0(), fs_page[0]);
    check_rc(set_base(SEGBASE_FS, (unsigned long)&fs_page[1]), 0);
    check_rc(read_fs0(), fs_page[1]);

    check_rc(set_base(SEGBASE_FS, 0x8000000000000000UL), -XEN_EINVAL);
    check_rc(set_base(SEGBASE_FS, 1UL << 47), -XEN_EINVAL);
    check_rc(read_fs0(), fs_page[1]);

    /* Xen's which is an unsigned int: the upper bits don't count. */
    check_rc(set_base((1UL << 32) | SEGBASE_FS, (unsigned long)fs_page), 0);
    check_rc(read_fs0(), fs_page[0]);

    /* Canonical is all Xen asks; the paging still guards its memory. */
    check_rc(set_base(SEGBASE_FS, HYPERVISOR_VIRT_START), 0);
    check_rc(set_base(SEGBASE_FS, 0), 0);
}

static void test_gs(void)
{
    check_rc(set_base(SEGBASE_GS_KERNEL, (unsigned long)gs_page), 0);
    check_rc(read_gs0(), gs_page[0]);

    /* The user base is the inactive one: the kernel's stays in use. */
    check_rc(set_base(SEGBASE_GS_USER, (unsigned long)user_page), 0);
    check_rc(read_gs0(), gs_page[0]);
    check_user_base("GS_USER", (unsigned long)user_page);

    check_rc(set_base(SEGBASE_GS_KERNEL, 0xffff000000000000UL), -XEN_EINVAL);
    check_rc(set_base(SEGBASE_GS_USER, 0x8000000000000000UL), -XEN_EINVAL);
    check_rc(set_base(SEGBASE_GS_KERNEL, 0x0000800000001000UL), -XEN_EINVAL);
    check_rc(read_gs0(), gs_page[0]);
    check_user_base("GS_USER after -EINVAL", (unsigned long)user_page);
}

/* Each load leaves the kernel's GS base alone: swapgs came back. */
static void check_sel(unsigned long arg, unsigned int want)
{
    check_rc(set_base(SEGBASE_GS_USER_SEL, arg), 0);
    if ( gs_sel() != want )
        test_fail("GS_USER_SEL %#lx: %%gs %#x, expected %#x",
                  arg, gs_sel(), want);
    check_rc(read_gs0(), gs_page[0]);
}

static uint8_t ldt_win[PAGE_SIZE] __page_aligned;

static void ldt_sel(void)
{
    unsigned long ldt = alloc_frame(), base = (unsigned long)user_page;

    /* Entry 1: DPL 3 data based at user_page (below 4 GiB here). */
    frame_set_pte(ldt, 1, desc_set_base(0x00cff2000000ffffULL, base));
    check_rc(map_frame_at((unsigned long)ldt_win, ldt, PTE_RO), 0);
    check_rc(mmuext_set_ldt((unsigned long)ldt_win, 2), 0);
    check_sel(0x000f, 0x000f);          /* LDT entry 1, RPL 3 */
    check_user_base("GS_USER_SEL from the LDT", base);
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(remap_initial((unsigned long)ldt_win), 0);
}

static void test_gs_sel(void)
{
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    /* A flat selector's base is 0, now the user's. */
    check_user_base("GS_USER_SEL flat", 0);

    check_sel(FLAT_USER_DS32 & ~3, FLAT_USER_DS32);     /* RPL forced to 3 */
    check_sel(0x12340000UL | FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(0, 0);
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(2, 2);                    /* NUL, its RPL as given */

    /* Selectors that can't be loaded: NUL, and still success. */
    check_sel(0x1238, 0);               /* an empty guest GDT entry */
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(0xe008, 0);               /* the hypervisor's code */
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(0xe010, 0);               /* and its data */
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(0xfff8, 0);               /* beyond the GDT */
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(0x000f, 0);               /* the LDT, which has none */
    check_user_base("GS_USER_SEL bad", 0);

    /*
     * An LDT whose page nothing has read yet: the hypervisor's load maps
     * it, as the guest's own loads do, and the user base is the
     * descriptor's.
     */
    ldt_sel();

    /*
     * An LDT over nothing: the hypervisor's load finds no page to map
     * for it and loads NUL.
     */
    check_rc(mmuext_set_ldt((unsigned long)BAD_UNMAPPED, 2), 0);
    check_sel(FLAT_USER_DS32, FLAT_USER_DS32);
    check_sel(0x000f, 0);
    check_user_base("GS_USER_SEL unmapped LDT", 0);
    check_rc(mmuext_set_ldt(0, 0), 0);

    /* A base set afterwards is the user's again. */
    check_rc(set_base(SEGBASE_GS_USER, (unsigned long)user_page), 0);
    check_user_base("GS_USER after GS_USER_SEL", (unsigned long)user_page);
    check_rc(read_gs0(), gs_page[0]);
}

void test_main(void)
{
    unsigned int i;

    for ( i = 0; i < 512; i++ )
    {
        fs_page[i] = 0xf5f5000000000000UL | i;
        gs_page[i] = 0x6565000000000000UL | i;
        user_page[i] = 0x0505000000000000UL | i;
    }

    test_fs();
    test_gs();
    test_gs_sel();

    check_rc(set_base(4, 0), -XEN_EINVAL);
    check_rc(set_base(~0UL, 0), -XEN_EINVAL);

    test_success();
}
