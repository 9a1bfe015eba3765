/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the guest wants its exceptions and events delivered:
 * set_trap_table, set_callbacks and callback_op, as Xen's pv/callback.c
 * and pv/traps.c (do_set_trap_table).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/nmi.h>
#include "pv/domain.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "pv/vcpu/smp.h"

#define TRAP_TABLE_MAX 4096

/* A handler the guest names must be a usable guest address. */
static bool handler_ok(unsigned long eip)
{
    return guest_range_ok(eip, 1);
}

/*
 * An array of trap_info ending at an entry whose address is 0; a NULL
 * array clears the table (Xen's do_set_trap_table).  Entries are applied
 * as they are read, as in Xen: a fault part-way leaves the earlier ones.
 */
/*
 * A 32-bit guest's handler selector: RPL 0 means its kernel's ring, 1
 * (Xen's fixup_guest_code_selector()); a 64-bit guest's is ignored.
 */
static unsigned int fixup_code_selector(unsigned int cs)
{
    return (cs & 3) ? cs : cs | 1;
}

static always_inline long set_trap_table(unsigned long traps, bool compat)
{
    struct vcpu *v = current_vcpu();
    uint8_t c[COMPAT_SIZEOF(trap_info)];
    trap_info_t ti;
    unsigned long i;

    if ( !traps )
    {
        memset(v->trap_ctxt, 0, sizeof(v->trap_ctxt));
        return 0;
    }
    for ( i = 0; ; i++ )
    {
        if ( compat )
        {
            if ( copy_from_guest_offset(c, traps, i, sizeof(c)) )
                return -XEN_EFAULT;
            xlat_trap_info_from_compat(&ti, c);
            ti.cs = fixup_code_selector(ti.cs);
        }
        else if ( copy_from_guest_offset(&ti, traps, i, sizeof(ti)) )
            return -XEN_EFAULT;
        if ( !ti.address )
            return 0;
        if ( !handler_ok(ti.address) )
            return -XEN_EINVAL;
        v->trap_ctxt[ti.vector] = ti;
        /* Xen preempts long lists; until continuations, bound them. */
        if ( i == TRAP_TABLE_MAX )
            return -XEN_E2BIG;
    }
}

long do_set_trap_table(unsigned long traps)
{
    return set_trap_table(traps, false);
}

long compat_set_trap_table(unsigned long traps)
{
    return set_trap_table(traps, true);
}

static long register_callback(const struct callback_register *r,
                              unsigned int cs)
{
    struct vcpu *v = current_vcpu();

    if ( r->address && !handler_ok(r->address) )
        return -XEN_EINVAL;
    switch ( r->type )
    {
    case CALLBACKTYPE_event:
        v->event_callback_eip = r->address;
        v->event_callback_cs = fixup_code_selector(cs);
        return 0;
    case CALLBACKTYPE_failsafe:
        v->failsafe_callback_eip = r->address;
        v->failsafe_callback_cs = fixup_code_selector(cs);
        v->failsafe_disables_events =
            r->flags & CALLBACKF_mask_events;
        return 0;
    case CALLBACKTYPE_syscall:
        if ( dom.compat )
            return -XEN_ENOSYS;         /* a 64-bit guest's only */
        v->syscall_callback_eip = r->address;
        v->syscall_disables_events =
            r->flags & CALLBACKF_mask_events;
        return 0;
    case CALLBACKTYPE_syscall32:
        v->syscall32_callback_cs = fixup_code_selector(cs);
        v->syscall32_callback_eip = r->address;
        v->syscall32_disables_events = r->flags & CALLBACKF_mask_events;
        return 0;
    case CALLBACKTYPE_sysenter:
        v->sysenter_callback_cs = fixup_code_selector(cs);
        v->sysenter_callback_eip = r->address;
        v->sysenter_disables_events = r->flags & CALLBACKF_mask_events;
        return 0;
    case CALLBACKTYPE_nmi:
        v->nmi_callback_eip = r->address;
        pv_nmi_callback_registered(v);
        return 0;
    default:
        return -XEN_ENOSYS;
    }
}

static long unregister_callback(const struct callback_unregister *u)
{
    switch ( u->type )
    {
    case CALLBACKTYPE_event:
    case CALLBACKTYPE_failsafe:
    case CALLBACKTYPE_syscall:
    case CALLBACKTYPE_syscall32:
    case CALLBACKTYPE_sysenter:
        return -XEN_EINVAL;             /* Xen: these can't be removed */
    case CALLBACKTYPE_nmi:
        current_vcpu()->nmi_callback_eip = 0;
        return 0;
    default:
        return -XEN_ENOSYS;
    }
}

static always_inline long callback_op(unsigned long cmd, unsigned long arg,
                                      bool compat)
{
    uint8_t c[COMPAT_SIZEOF(callback_register)];
    struct callback_register r;
    struct callback_unregister u;
    unsigned int cs = 0;

    switch ( cmd )
    {
    case CALLBACKOP_register:
        if ( compat )
        {
            if ( copy_from_guest(c, arg, sizeof(c)) )
                return -XEN_EFAULT;
            xlat_callback_register_from_compat(&r, &cs, c);
        }
        else if ( copy_from_guest(&r, arg, sizeof(r)) )
            return -XEN_EFAULT;
        return register_callback(&r, cs);
    case CALLBACKOP_unregister:
        if ( copy_from_guest(&u, arg, sizeof(u)) )
            return -XEN_EFAULT;
        return unregister_callback(&u);
    default:
        return compat ? -XEN_EINVAL : -XEN_ENOSYS;  /* as Xen's two */
    }
}

long do_callback_op(unsigned long cmd, unsigned long arg)
{
    return callback_op(cmd, arg, false);
}

/*
 * Xen's nmi_op, the older way to the NMI callback (CALLBACKTYPE_nmi is
 * the newer): XENNMI_register_callback with the handler's address (its
 * pad not looked at), XENNMI_unregister_callback; both widths as one
 * but for the structure.
 */
static always_inline long nmi_op(unsigned long cmd, unsigned long arg,
                                 bool compat)
{
    uint8_t c[COMPAT_SIZEOF(xennmi_callback)];
    struct xennmi_callback cb;
    struct callback_register r = { .type = CALLBACKTYPE_nmi };

    switch ( cmd )
    {
    case XENNMI_register_callback:
        if ( compat )
        {
            if ( copy_from_guest(c, arg, sizeof(c)) )
                return -XEN_EFAULT;
            r.address = compat_get(c, xennmi_callback, handler_address);
        }
        else if ( copy_from_guest(&cb, arg, sizeof(cb)) )
            return -XEN_EFAULT;
        else
            r.address = cb.handler_address;
        return register_callback(&r, 0);
    case XENNMI_unregister_callback:
        current_vcpu()->nmi_callback_eip = 0;
        return 0;
    default:
        return -XEN_ENOSYS;
    }
}

long do_nmi_op(unsigned long cmd, unsigned long arg)
{
    return nmi_op(cmd, arg, false);
}

long compat_nmi_op(unsigned long cmd, unsigned long arg)
{
    return nmi_op(cmd, arg, true);
}

long compat_callback_op(unsigned long cmd, unsigned long arg)
{
    return callback_op(cmd, arg, true);
}

/*
 * Xen's do_set_callbacks(): each callback registered on its own, a
 * refusal (a non-canonical address) leaving that one as it was, and 0
 * whatever happened, as the compat form below.
 */
long do_set_callbacks(unsigned long event, unsigned long failsafe,
                      unsigned long syscall)
{
    struct callback_register r = { .type = CALLBACKTYPE_event,
                                   .address = event };

    (void)register_callback(&r, 0);
    r.type = CALLBACKTYPE_failsafe;
    r.address = failsafe;
    (void)register_callback(&r, 0);
    r.type = CALLBACKTYPE_syscall;
    r.address = syscall;
    (void)register_callback(&r, 0);
    return 0;
}

/*
 * A 32-bit guest's: (selector, address) for its event and failsafe
 * callbacks; Xen's compat_set_callbacks() ignores a refusal and says 0.
 */
long compat_set_callbacks(unsigned long event_cs, unsigned long event,
                          unsigned long failsafe_cs, unsigned long failsafe)
{
    struct callback_register r = { .type = CALLBACKTYPE_event,
                                   .address = event };

    (void)register_callback(&r, event_cs);
    r.type = CALLBACKTYPE_failsafe;
    r.address = failsafe;
    (void)register_callback(&r, failsafe_cs);
    return 0;
}
