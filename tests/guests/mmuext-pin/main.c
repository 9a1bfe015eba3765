/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmuext_op's page-table operations as Xen's do_mmuext_op() answers a
 * PV domU: pinning L1-L4 (L1-L3 for a 32-bit PAE guest; a pin holds a
 * type: no writable mapping, no second pin, no other level), unpinning
 * (releases it), the start-of-day top level pinned by the builder as
 * libxc's bootlate_pv() does, NEW_BASEPTR and NEW_USER_BASEPTR
 * (validating a fresh top level, refusing anything else; a 32-bit guest
 * has no user one), and the errors: -EINVAL, -EOPNOTSUPP for MARK_SUPER,
 * -ENOSYS, -EFAULT, -ESRCH / -EPERM for foreign domains, with *pdone.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] =
    "mmuext_op: pin, unpin, NEW_BASEPTR, NEW_USER_BASEPTR";

static uint8_t win[2][PAGE_SIZE] __page_aligned;
#define W0          ((unsigned long)win[0])
#define W1          ((unsigned long)win[1])

static unsigned long shim_mfn, beyond_ram;

static long mmuext_user_baseptr(unsigned long mfn)
{
    return mmuext1(MMUEXT_NEW_USER_BASEPTR, mfn);
}

/* Can @mfn be mapped writable now?  (It can't while it has a table type.) */
static long try_map_rw(unsigned long mfn)
{
    long rc = map_frame_at(W0, mfn, PTE_RW);

    if ( !rc && remap_initial(W0) )
        test_error("restoring the window failed");
    return rc;
}

static void test_pin_levels(void)
{
    unsigned long data = alloc_frame(), t[5];
    unsigned int l;

    /* L1 maps data read-only; each higher level points at the one below. */
    t[1] = new_table(1, 0, pte_make(data, PTE_RO));
    for ( l = 2; l <= PT_LEVELS; l++ )
        t[l] = new_table(l, 0, pte_make(t[l - 1], PTE_TABLE));

    for ( l = 1; l <= PT_LEVELS; l++ )
    {
        check_rc(pin_table(l, t[l]), -XEN_EINVAL);      /* pinned once */
        check_rc(pin_table(l == 1 ? 2 : 1, t[l]), -XEN_EINVAL);
        check_rc(try_map_rw(t[l]), -XEN_EBUSY);
        check_rc(map_frame_at(W0, t[l], PTE_RO), 0);    /* readable */
        if ( pte_mfn(peek(W0)) != (l == 1 ? data : t[l - 1]) )
            test_fail("pinned L%u entry 0 reads %#llx", l,
                      (unsigned long long)peek(W0));
        check_rc(remap_initial(W0), 0);
    }

    /* Unpinned but still used by the pinned L2: still an L1. */
    check_rc(unpin_table(t[1]), 0);
    check_rc(unpin_table(t[1]), -XEN_EINVAL);
    check_rc(try_map_rw(t[1]), -XEN_EBUSY);

    /* Unpinning the top level, and down to L2, releases the whole tree. */
    for ( l = PT_LEVELS; l >= 2; l-- )
    {
        check_rc(unpin_table(t[l]), 0);
        check_rc(try_map_rw(t[l]), 0);
    }
    check_rc(try_map_rw(t[1]), 0);
}

/* A pin and a writable mapping exclude each other. */
static void test_pin_writable(void)
{
    unsigned long f = alloc_frame();
    uint64_t ptr = pt_entry_maddr(W0, 1);

    check_rc(map_frame_at(W0, f, PTE_RW), 0);
    check_rc(pin_table(1, f), -XEN_EINVAL);
    check_rc(map_frame_at(W0, f, PTE_RO), 0);
    check_rc(tlb_flush_local(), 0);
    check_rc(pin_table(1, f), 0);

    check_rc(map_frame_at(W0, f, PTE_RW), -XEN_EBUSY);
    check_rc(mmu_update1(ptr, pte_make(f, PTE_RW)), -XEN_EBUSY);
    if ( exinfo_vector(probe_write(win[0])) != X86_EXC_PF )
        test_fail("pinned L1 writable after refused updates");

    check_rc(unpin_table(f), 0);
    check_rc(map_frame_at(W0, f, PTE_RW), 0);
    poke(W0, UINT64_C(0x5a5a5a5a5a5a5a5a));
    check_rc(frame_get_pte(f, 0), UINT64_C(0x5a5a5a5a5a5a5a5a));
    check_rc(remap_initial(W0), 0);
}

static void test_pin_errors(void)
{
    unsigned long boot_l1 = pte_mfn(*pt_entry(W0, 2));
    unsigned long boot_l4 = pt_base_mfn();
    unsigned long a = alloc_frame(), b = alloc_frame(), w = alloc_frame();
    mmuext_op_t ops[3] = {
        { .cmd = MMUEXT_PIN_L1_TABLE, .arg1.mfn = a },
        { .cmd = MMUEXT_PIN_L1_TABLE, .arg1.mfn = b },
        { .cmd = MMUEXT_PIN_L1_TABLE, .arg1.mfn = a },
    };
    unsigned int done = 0xdead;

    /* Only the guest's own frames. */
    check_rc(pin_table(1, shim_mfn), -XEN_EINVAL);
    check_rc(pin_table(PT_LEVELS, beyond_ram), -XEN_EINVAL);
    check_rc(unpin_table(shim_mfn), -XEN_EINVAL);
    check_rc(unpin_table(beyond_ram), -XEN_EINVAL);

    /* Not pinned: a fresh frame, a bootstrap L1 (in use, never pinned). */
    check_rc(unpin_table(a), -XEN_EINVAL);
    check_rc(unpin_table(boot_l1), -XEN_EINVAL);

    /* The builder pinned our top level; unpinning it leaves it in use. */
    check_rc(pin_table(PT_LEVELS, boot_l4), -XEN_EINVAL);
    check_rc(unpin_table(boot_l4), 0);
    check_rc(try_map_rw(boot_l4), -XEN_EBUSY);
    check_rc(pin_table(PT_LEVELS, boot_l4), 0);
#ifndef __x86_64__
    /* A 32-bit guest's PIN_L4_TABLE does nothing, successfully (Xen). */
    check_rc(mmuext1(MMUEXT_PIN_L4_TABLE, a), 0);
    check_rc(unpin_table(a), -XEN_EINVAL);
#endif

    /* An L2 over a writable frame doesn't validate. */
    check_rc(map_frame_at(W0, w, PTE_RW), 0);
    frame_set_pte(b, 0, pte_make(w, PTE_TABLE));
    check_rc(pin_table(2, b), -XEN_EINVAL);
    check_rc(remap_initial(W0), 0);
    frame_set_pte(b, 0, 0);

    /* A batch stops at the first failure. */
    check_rc(hypercall_mmuext_op(ops, 3, &done, DOMID_SELF), -XEN_EINVAL);
    check_rc(done, 2);
    check_rc(pin_table(1, b), -XEN_EINVAL);             /* b got pinned */
    check_rc(unpin_table(a), 0);
    check_rc(unpin_table(b), 0);

    /* Commands: superpages are gone from Xen; 14 and 21+ never existed. */
    check_rc(mmuext1(MMUEXT_MARK_SUPER, a), -XEN_EOPNOTSUPP);
    check_rc(mmuext1(MMUEXT_UNMARK_SUPER, a), -XEN_EOPNOTSUPP);
    check_rc(mmuext1(14, 0), -XEN_ENOSYS);
    check_rc(mmuext1(21, 0), -XEN_ENOSYS);
    check_rc(mmuext1(~0u, 0), -XEN_ENOSYS);

    /* The list: outside guest space, nothing written; unmapped: done = 0. */
    done = 0xdead;
    check_rc(hypercall_mmuext_op(BAD_XEN, 1, &done, DOMID_SELF), -XEN_EFAULT);
    check_rc(hypercall_mmuext_op(BAD_NONCANONICAL, 1, &done, DOMID_SELF),
             -XEN_EFAULT);
    check_rc(done, 0xdead);
    check_rc(hypercall_mmuext_op(BAD_UNMAPPED, 1, &done, DOMID_SELF),
             -XEN_EFAULT);
#ifdef __x86_64__
    check_rc(done, 0);
#else
    /* Xen's compat_mmuext_op() reads ops in before running any: *pdone
     * is only written by the batches that ran. */
    check_rc(done, 0xdead);
#endif
    check_rc(hypercall_mmuext_op(ops, 1, BAD_UNMAPPED, DOMID_SELF), 0);
    check_rc(unpin_table(a), 0);                        /* it did pin */

    /* Foreign domains: refused before any op, *pdone untouched. */
    done = 0xdead;
    check_rc(hypercall_mmuext_op(ops, 1, &done, 7), -XEN_ESRCH);
    check_rc(hypercall_mmuext_op(ops, 1, &done, 0), -XEN_EPERM);
    check_rc(hypercall_mmuext_op(ops, 1, &done, DOMID_XEN), -XEN_EPERM);
    check_rc(hypercall_mmuext_op(ops, 1, &done, DOMID_IO), -XEN_EPERM);
    check_rc(done, 0xdead);
    check_rc(pin_table(1, a), 0);                       /* not pinned */
    check_rc(unpin_table(a), 0);
}

#ifdef __x86_64__
/* The slots the hypervisor fills in an L4: its own, 256-271. */
#define HV_FIRST    256
#define HV_END      272
#else
/*
 * A PAE L3 is a full page to the CPU in long mode: Xen clears its slots
 * 4-511 as it validates one (alloc_l3_table()).
 */
#define HV_FIRST    4
#define HV_END      512
#endif

/* A fresh top level with our slot 0, and junk in the hypervisor's slots. */
static unsigned long make_l4(void)
{
    unsigned long l4 = root_frame();
    const uint64_t *boot = (const uint64_t *)start_info->pt_base;

    frame_set_pte(l4, 0, boot[0]);
    for ( unsigned int s = HV_FIRST; s < HV_END; s++ )
        frame_set_pte(l4, s, ~UINT64_C(0));
    return l4;
}

/*
 * An LDT's pages were mapped from the kernel tables NEW_BASEPTR leaves:
 * unmapped, their frames released (Xen's pv_destroy_ldt()), and mapped
 * again from the new tables as the CPU next reads them.
 */
#ifdef __x86_64__
#define LDT_SEL     (4 | 3)
#else
#define LDT_SEL     (4 | 1)
#endif
static void test_ldt_new_baseptr(void)
{
    unsigned long boot = pt_base_mfn(), l4 = make_l4(), ldt = alloc_frame();

    frame_set_pte(ldt, 0, 0x00cff3000000ffffULL);   /* data, DPL 3 */
    check_rc(map_frame_at(W1, ldt, PTE_RO), 0);
    check_rc(mmuext_set_ldt(W1, 1), 0);
    check_rc(load_es(LDT_SEL), 0);
    check_rc(try_map_rw(ldt), -XEN_EBUSY);              /* descriptors */
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), 0);
    check_rc(try_map_rw(ldt), 0);                       /* let go */
    check_rc(load_es(LDT_SEL), 0);                      /* mapped again */
    check_rc(try_map_rw(ldt), -XEN_EBUSY);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, boot), 0);
    check_rc(mmuext_set_ldt(0, 0), 0);
    check_rc(remap_initial(W1), 0);
}

static void test_new_baseptr(void)
{
    unsigned long boot = pt_base_mfn(), l4 = make_l4(), junk = alloc_frame();
    unsigned long l1 = new_table(1, 0, 0);
    unsigned int s, left = 0;

    /* Unvalidated and unpinned: validated on the way in. */
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), 0);
    check_rc(mfn_to_pfn(boot), start_info->pt_base >> PAGE_SHIFT);
    check_rc(try_map_rw(l4), -XEN_EBUSY);
    check_rc(map_frame_at(W0, l4, PTE_RO), 0);
    for ( s = HV_FIRST; s < HV_END; s++ )
        left += peek(W0 + s * 8) == ~UINT64_C(0);
    if ( left )
        test_fail("%u of the guest's values left in slots %u-%u", left,
                  HV_FIRST, HV_END - 1);
    check_rc(remap_initial(W0), 0);
    check_rc(pin_table(PT_LEVELS, l4), 0);
    check_rc(unpin_table(l4), 0);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), 0);       /* the same again */

    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, boot), 0);
    check_rc(try_map_rw(l4), 0);                        /* released */

    /* Not an L4: writable, an L1, junk, not ours. */
    check_rc(map_frame_at(W0, junk, PTE_RW), 0);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, junk), -XEN_EINVAL);
    check_rc(remap_initial(W0), 0);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l1), -XEN_EINVAL);
    frame_fill(junk, 0xff);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, junk), -XEN_EINVAL);
    check_rc(try_map_rw(junk), 0);                      /* left no type */
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, shim_mfn), -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, beyond_ram), -XEN_EINVAL);

#ifdef __x86_64__
    /* The user L4 holds a type reference until replaced. */
    l4 = make_l4();
    check_rc(mmuext_user_baseptr(l4), 0);
    check_rc(try_map_rw(l4), -XEN_EBUSY);
    check_rc(mmuext_user_baseptr(l4), 0);
    check_rc(mmuext_user_baseptr(0), 0);
    check_rc(try_map_rw(l4), 0);
    check_rc(mmuext_user_baseptr(boot), 0);
    check_rc(mmuext_user_baseptr(junk), -XEN_EINVAL);
    check_rc(mmuext_user_baseptr(l1), -XEN_EINVAL);
    check_rc(mmuext_user_baseptr(shim_mfn), -XEN_EINVAL);
    check_rc(mmuext_user_baseptr(0), 0);
#else
    /* A 32-bit guest has no user page tables: refused, whatever. */
    check_rc(mmuext_user_baseptr(pt_base_mfn()), -XEN_EINVAL);
    check_rc(mmuext_user_baseptr(0), -XEN_EINVAL);
#endif
    check_rc(unpin_table(l1), 0);
}

void test_main(void)
{
    shim_mfn = hypervisor_frame();
    beyond_ram = maximum_ram_page();

    test_pin_levels();
    test_pin_writable();
    test_pin_errors();
    test_new_baseptr();
    test_ldt_new_baseptr();

    test_success();
}
