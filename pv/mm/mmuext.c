/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_mmuext_op, as Xen's do_mmuext_op: pinning, the vCPU's root
 * tables, TLB and cache flushes, page copies.  A batch stops at the first
 * failing op, *pdone says how many succeeded, and long batches continue
 * themselves like mmu_update's.  No domain lock, as Xen's (below).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/flush.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/descriptor-tables.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "pv/mm/mm.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"
#include "shim/perfc.h"

/* pv/mm/mmu-hypercalls.c: whose frames; the guest's bitmap of vCPUs. */
int pv_check_domid(unsigned long domid);
int pv_vcpu_mask(unsigned long ptr, unsigned long *mask);

static int copy_or_clear(unsigned long dst, unsigned long src, bool copy)
{
    struct page_info *d = mfn_to_page(dst), *s = mfn_to_page(src);

    if ( !d || !page_get(d, PGO_GUEST) )
        return -XEN_EINVAL;
    if ( page_get_type_flush(d, PGT_WRITABLE) != PGT_OK )
    {
        page_put(d);
        return -XEN_EINVAL;
    }
    if ( copy && (!s || !page_get(s, PGO_GUEST)) )
    {
        page_put_type(d);
        page_put(d);
        return -XEN_EINVAL;
    }
    if ( copy )
    {
        memcpy(__va(dst << PAGE_SHIFT), __va(src << PAGE_SHIFT), PAGE_SIZE);
        page_put(s);
    }
    else
        clear_page(__va(dst << PAGE_SHIFT));
    page_put_type(d);
    page_put(d);
    return 0;
}

/* The TLB and cache flushes, which change no reference. */
static bool op_is_flush(unsigned int cmd)
{
    switch ( cmd )
    {
    case MMUEXT_TLB_FLUSH_LOCAL:
    case MMUEXT_TLB_FLUSH_ALL:
    case MMUEXT_INVLPG_LOCAL:
    case MMUEXT_INVLPG_ALL:
    case MMUEXT_TLB_FLUSH_MULTI:
    case MMUEXT_INVLPG_MULTI:
    case MMUEXT_FLUSH_CACHE:
    case MMUEXT_FLUSH_CACHE_GLOBAL:
        return true;
    default:
        return false;
    }
}

/*
 * Every op runs under no lock, as Xen's: pins and unpins, the vCPU's own
 * root tables, page copies and clears change frames only through the
 * frame table's words (a new type validated by the CPU that holds it
 * VALIDATING, pv/mm/page-type.c); the flushes touch no frame, table or
 * other vCPU's state (this vCPU's bitmap of vCPUs read from its memory,
 * the running vCPUs' CPUs flushed by pv_flush_guest()); MMUEXT_SET_LDT
 * changes this vCPU's own LDT, which only its own CPU maps and reads
 * (pv/descriptor-tables.c); and the rest refuse, touching nothing.
 */

/*
 * Did this CPU's last mmuext_op run an op other than a flush (one that
 * may change references)?  For mm-audit, which needs not stop every
 * vCPU after a batch of flushes (pv/hypercall.c).
 */
static bool __hot_data ran_non_flush[NR_CPUS];

bool pv_mmuext_changed_refs(void)
{
    return ran_non_flush[smp_processor_id()];
}

static int one_op(struct vcpu *v, const struct mmuext_op *op)
{
    unsigned long mask;

    switch ( op->cmd )
    {
    case MMUEXT_PIN_L1_TABLE:
    case MMUEXT_PIN_L2_TABLE:
    case MMUEXT_PIN_L3_TABLE:
    case MMUEXT_PIN_L4_TABLE:
        if ( dom.compat && op->cmd == MMUEXT_PIN_L4_TABLE )
            return 0;           /* a PAE guest has no L4: Xen ignores it */
        return pin_table(op->arg1.mfn, PGT_L1 + op->cmd - MMUEXT_PIN_L1_TABLE);
    case MMUEXT_UNPIN_TABLE:
        return unpin_table(op->arg1.mfn);
    case MMUEXT_NEW_BASEPTR:
        return new_guest_cr3(v, op->arg1.mfn);
    case MMUEXT_NEW_USER_BASEPTR:
        return new_guest_user_cr3(v, op->arg1.mfn);

    case MMUEXT_TLB_FLUSH_LOCAL:
        pv_flush_local(0, FLUSH_TLB_GLOBAL);
        return 0;
    case MMUEXT_TLB_FLUSH_ALL:
        pv_flush_guest(pv_guest_cpus(), 0, FLUSH_TLB_GLOBAL);
        return 0;
    case MMUEXT_INVLPG_LOCAL:
        /* Xen ignores an address that is not the guest's. */
        if ( guest_range_ok(op->arg1.linear_addr, 1) )
            pv_flush_local(op->arg1.linear_addr, FLUSH_VA);
        return 0;
    case MMUEXT_INVLPG_ALL:
        if ( guest_range_ok(op->arg1.linear_addr, 1) )
            pv_flush_guest(pv_guest_cpus(), op->arg1.linear_addr,
                           FLUSH_VA);
        return 0;
    case MMUEXT_TLB_FLUSH_MULTI:
    case MMUEXT_INVLPG_MULTI:
        if ( pv_vcpu_mask((unsigned long)op->arg2.vcpumask.p, &mask) )
            return -XEN_EINVAL;         /* as Xen turns the -EFAULT */
        /* vCPU n runs on CPU n: the running ones are the CPUs. */
        mask &= pv_domain_cpumask();
        if ( op->cmd == MMUEXT_TLB_FLUSH_MULTI )
            pv_flush_guest(mask, 0, FLUSH_TLB_GLOBAL);
        else if ( guest_range_ok(op->arg1.linear_addr, 1) )
            pv_flush_guest(mask, op->arg1.linear_addr, FLUSH_VA);
        return 0;

    case MMUEXT_FLUSH_CACHE:
        /* Xen: only for a domain with I/O access, which ours lacks. */
        return -XEN_EACCES;
    case MMUEXT_FLUSH_CACHE_GLOBAL:
        return -XEN_EINVAL;             /* Xen's answer there */

    case MMUEXT_CLEAR_PAGE:
        return copy_or_clear(op->arg1.mfn, 0, false);
    case MMUEXT_COPY_PAGE:
        return copy_or_clear(op->arg1.mfn, op->arg2.src_mfn, true);

    case MMUEXT_MARK_SUPER:
    case MMUEXT_UNMARK_SUPER:
        return -XEN_EOPNOTSUPP;         /* no PV superpages, as Xen now */

    case MMUEXT_SET_LDT:
        /* Xen ignores the address of an empty LDT. */
        return pv_set_ldt(v, op->arg2.nr_ents ? op->arg1.linear_addr : 0,
                          op->arg2.nr_ents);

    default:
        return -XEN_ENOSYS;
    }
}

/* A 32-bit guest's op is laid out as its own (pv/compat/xlat.h). */
static always_inline long mmuext_op(unsigned long uops, unsigned long count,
                                    unsigned long pdone,
                                    unsigned long foreigndom, bool compat)
{
    struct vcpu *v = current_vcpu();
    const size_t size = compat ? COMPAT_SIZEOF(mmuext_op)
                               : sizeof(struct mmuext_op);
    uint8_t c[COMPAT_SIZEOF(mmuext_op)];
    struct mmuext_op op;
    unsigned int done;
    unsigned long i;
    long rc;

    /* Xen takes both as unsigned int: the upper halves don't count. */
    foreigndom = (unsigned int)foreigndom;
    ran_non_flush[smp_processor_id()] = false;
    done = batch_begin(&count, pdone);
    perfc_incr(calls_to_mmuext_op);
    perfc_add(num_mmuext_ops, count);
    /*
     * The list's start, and (64-bit) its range; Xen's compat_mmuext_op()
     * takes the list as guest_handle_okay() does, from its start.
     */
    if ( !guest_range_ok(uops, compat ? size : count * size) )
        return -XEN_EFAULT;
    if ( (rc = pv_check_domid(foreigndom)) )
        return rc;

    for ( i = 0; i < count; i++ )
    {
        local_irq_window();             /* as do_mmu_update()'s requests */
        if ( hypercall_preempt_check(i) )
        {
            rc = hypercall_create_continuation(
                __HYPERVISOR_mmuext_op, uops + i * size,
                (count - i) | MMU_UPDATE_PREEMPTED, pdone, foreigndom);
            break;
        }
        if ( compat ? copy_from_guest_offset(c, uops, i, size)
                    : copy_from_guest_offset(&op, uops, i, size) )
        {
            /*
             * Xen's compat_mmuext_op() reads the ops in before it runs
             * any: an unreadable first one leaves *pdone as it was.
             */
            if ( compat && !i )
                return -XEN_EFAULT;
            rc = -XEN_EFAULT;
            break;
        }
        if ( compat )
            xlat_mmuext_op_from_compat(&op, c);
        if ( !op_is_flush(op.cmd) )
            ran_non_flush[smp_processor_id()] = true;
        if ( (rc = one_op(v, &op)) )
        {
            printk(XENLOG_DEBUG "d1: mmuext_op %u (arg %#lx) failed: %ld\n",
                   op.cmd, (unsigned long)op.arg1.mfn, rc);
            break;
        }
    }

    batch_end(pdone, done, i);
    return rc;
}

long __hot_text do_mmuext_op(unsigned long uops, unsigned long count,
                             unsigned long pdone, unsigned long foreigndom)
{
    return mmuext_op(uops, count, pdone, foreigndom, false);
}

long compat_mmuext_op(unsigned long uops, unsigned long count,
                      unsigned long pdone, unsigned long foreigndom)
{
    return mmuext_op(uops, count, pdone, foreigndom, true);
}
