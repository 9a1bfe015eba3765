/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rest of mmuext_op, as Xen's do_mmuext_op() answers a 64-bit PV domU
 * with no I/O resources: FLUSH_CACHE (-EACCES) and FLUSH_CACHE_GLOBAL
 * (-EINVAL), CLEAR_PAGE and COPY_PAGE (the destination must be the
 * guest's and not a page table; the source any frame of the guest's), and
 * SET_LDT: its argument checks, an LDT in use (a selector with TI=1
 * loads, and the LDT frame can't be mapped writable meanwhile), an LDT
 * frame still writable (the load faults with #PF at the LDT's address, as
 * pv_map_ldt_shadow_page() refuses it), and ents = 0 switching it off.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] =
    "mmuext_op: FLUSH_CACHE, CLEAR_PAGE, COPY_PAGE, SET_LDT";

static uint8_t win[2][PAGE_SIZE] __page_aligned;
#define W(i)        ((unsigned long)win[i])

#define LDT_SEL     0x7                 /* LDT entry 0, TI = 1, RPL 3 */
static volatile uint64_t ldt_target = UINT64_C(0x1d7a76e7c0ffee00);

static long copy_page(unsigned long dst, unsigned long src)
{
    mmuext_op_t op = {
        .cmd = MMUEXT_COPY_PAGE,
        .arg1.mfn = dst,
        .arg2.src_mfn = src,
    };

    return hypercall_mmuext_op(&op, 1, NULL, DOMID_SELF);
}

/* Every qword of frame @mfn is @pat (read through W(0)). */
static void check_frame(const char *what, unsigned long mfn, uint64_t pat)
{
    unsigned int i;

    check_rc(map_frame_at(W(0), mfn, PTE_RO), 0);
    for ( i = 0; i < PAGE_SIZE / 8 && peek(W(0) + i * 8) == pat; i++ )
        ;
    if ( i < PAGE_SIZE / 8 )
        test_fail("%s: qword %u is %#llx, expected %#llx", what, i,
                  (unsigned long long)peek(W(0) + i * 8),
                  (unsigned long long)pat);
    check_rc(remap_initial(W(0)), 0);
}

static void test_clear_copy(void)
{
    unsigned long src = alloc_frame(), dst = alloc_frame();
    unsigned long hv = hypervisor_frame(), l1;
    const uint64_t pat = UINT64_C(0x5c5c5c5c5c5c5c5c);

    frame_fill(src, 0x5c);
    frame_fill(dst, 0x11);
    check_rc(copy_page(dst, src), 0);
    check_frame("COPY_PAGE", dst, pat);
    check_rc(copy_page(dst, dst), 0);
    check_rc(mmuext1(MMUEXT_CLEAR_PAGE, dst), 0);
    check_frame("CLEAR_PAGE", dst, 0);

    /* A frame mapped writable is fine, and the mapping sees the result. */
    check_rc(map_frame_at(W(1), dst, PTE_RW), 0);
    check_rc(copy_page(dst, src), 0);
    check_rc(peek(W(1) + 0x800), pat);
    check_rc(mmuext1(MMUEXT_CLEAR_PAGE, dst), 0);
    check_rc(peek(W(1) + 0x800), 0);
    check_rc(remap_initial(W(1)), 0);

    /* A page table is no destination, but a fine source. */
    l1 = new_table(1, 3, pte_make(src, PTE_RO));
    check_rc(mmuext1(MMUEXT_CLEAR_PAGE, l1), -XEN_EINVAL);
    check_rc(copy_page(l1, src), -XEN_EINVAL);
    check_rc(pte_mfn(frame_get_pte(l1, 3)), src);
    check_rc(frame_get_pte(l1, 0), 0);
    check_rc(copy_page(dst, l1), 0);
    check_rc(pte_mfn(frame_get_pte(dst, 3)), src);
    check_rc(unpin_table(l1), 0);

    /* Frames that aren't the guest's, either way round. */
    check_rc(mmuext1(MMUEXT_CLEAR_PAGE, hv), -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_CLEAR_PAGE, maximum_ram_page()), -XEN_EINVAL);
    check_rc(copy_page(hv, src), -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_CLEAR_PAGE, dst), 0);
    check_rc(copy_page(dst, hv), -XEN_EINVAL);
    check_rc(copy_page(dst, maximum_ram_page()), -XEN_EINVAL);
    check_frame("after a refused COPY_PAGE", dst, 0);
}

/* A flat, writable, DPL 3 data segment based at @base (SDM 3A 3.4.5). */
static uint64_t data_desc(uint32_t base)
{
    return 0xffff | ((uint64_t)(base & 0xffffff) << 16) |
           (UINT64_C(0xf3) << 40) | (UINT64_C(0xcf) << 48) |
           ((uint64_t)(base >> 24) << 56);
}

/* lar: the access rights of @sel, or false with ZF clear. */
static bool lar(unsigned int sel, unsigned int *ar)
{
    bool ok;

    asm volatile ( "lar %[sel], %[ar]; setz %[ok]"
                   : [ar] "=r" (*ar), [ok] "=q" (ok)
                   : [sel] "r" (sel) : "cc" );
    return ok;
}

static exinfo_t load_fs(unsigned int sel)
{
    return TRY("mov %[sel], %%fs", [sel] "r" (sel));
}

static uint64_t read_fs0(void)
{
    uint64_t v;

#ifdef __x86_64__
    asm volatile ( "mov %%fs:0, %0" : "=r" (v) :: "memory" );
#else
    asm volatile ( "mov %%fs:0, %%eax; mov %%fs:4, %%edx" : "=A" (v)
                   :: "memory" );
#endif
    return v;
}

static void check_ldt_works(const char *what)
{
    unsigned int ar;
    exinfo_t ex;

    if ( !lar(LDT_SEL, &ar) )
        test_fail("%s: lar %#x: not a valid selector", what, LDT_SEL);
    else if ( ar != 0x00c0f300 )
        test_fail("%s: lar %#x: rights %#x, expected 0xc0f300", what,
                  LDT_SEL, ar);
    ex = load_fs(LDT_SEL);
    if ( ex )
        test_fail("%s: loading %#x faulted: vector %u, error code %#x", what,
                  LDT_SEL, exinfo_vector(ex), exinfo_error(ex));
    else if ( read_fs0() != ldt_target )
        test_fail("%s: %%fs:0 reads %#llx", what,
                  (unsigned long long)read_fs0());
    load_fs(0);
}

static void test_ldt(void)
{
    unsigned long ldt = alloc_frame();
    unsigned int ar;
    exinfo_t ex;

    check_rc(mmuext_set_ldt(W(0) + 8, 1), -XEN_EINVAL);        /* not aligned */
    check_rc(mmuext_set_ldt(W(0), 8193), -XEN_EINVAL);         /* > 8192 ents */
#ifdef __x86_64__
    check_rc(mmuext_set_ldt((unsigned long)BAD_XEN, 1), -XEN_EINVAL);
    check_rc(mmuext_set_ldt((unsigned long)BAD_NONCANONICAL, 1), -XEN_EINVAL);
#else
    /*
     * Xen's __addr_ok() checks the 64-bit address space: any 32-bit base
     * is taken (and nothing can be loaded from the hypervisor's area).
     */
    check_rc(mmuext_set_ldt((unsigned long)BAD_XEN, 1), 0);
    check_rc(mmuext_set_ldt((unsigned long)BAD_NONCANONICAL, 1), 0);
#endif
    check_rc(mmuext_set_ldt(W(0) + 8, 0), 0);                  /* ptr ignored */
    check_rc(mmuext_set_ldt(W(0), 8192), 0);
    check_rc(mmuext_set_ldt(0, 0), 0);

    frame_set_pte(ldt, 0, data_desc((unsigned long)&ldt_target));

    /* Still mapped writable where the LDT is: the load faults there. */
    check_rc(map_frame_at(W(0), ldt, PTE_RW), 0);
    check_rc(mmuext_set_ldt(W(0), 1), 0);
    ex = load_fs(LDT_SEL);
    if ( ex != EXINFO(X86_EXC_PF, 0) )
        test_fail("LDT frame writable: loading %#x gave %#lx, expected #PF",
                  LDT_SEL, (unsigned long)ex);
    else if ( shared_info && last_pf_cr2 != W(0) )
        test_fail("LDT frame writable: #PF at %#lx, expected %#lx",
                  last_pf_cr2, W(0));

    /* Read-only, it works, and it can't become writable while in use. */
    check_rc(map_frame_at(W(0), ldt, PTE_RO), 0);
    check_ldt_works("LDT frame read-only");
    check_rc(map_frame_at(W(1), ldt, PTE_RW), -XEN_EBUSY);

    /* ents = 0: no LDT, and the frame is free again. */
    check_rc(mmuext_set_ldt(0, 0), 0);
    if ( lar(LDT_SEL, &ar) )
        test_fail("no LDT: lar %#x still valid", LDT_SEL);
    ex = load_fs(LDT_SEL);
    if ( ex != EXINFO(X86_EXC_GP, LDT_SEL & ~3) )
        test_fail("no LDT: loading %#x gave %#lx, expected #GP(%#x)",
                  LDT_SEL, (unsigned long)ex, LDT_SEL & ~3);
    check_rc(map_frame_at(W(1), ldt, PTE_RW), 0);
    check_rc(remap_initial(W(1)), 0);
    check_rc(remap_initial(W(0)), 0);
}

void test_main(void)
{
    long rc = map_shared_info();

    if ( rc )
        printf("  #PF addresses not checked: no shared_info (%ld)\n", rc);

    check_rc(mmuext1(MMUEXT_FLUSH_CACHE, 0), -XEN_EACCES);
    check_rc(mmuext1(MMUEXT_FLUSH_CACHE_GLOBAL, 0), -XEN_EINVAL);
    test_clear_copy();
    test_ldt();

    test_success();
}
