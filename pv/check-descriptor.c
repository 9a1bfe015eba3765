/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The descriptor check behind set_gdt and update_descriptor: Xen's
 * check_descriptor() (xen/arch/x86/pv/descriptor-tables.c) for a 64-bit
 * PV guest, and check_descriptor_compat() for a 32-bit PAE one.  Pure, so
 * tests/unit/test-descriptor.c runs them on the host.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "pv/descriptor-tables.h"
#include "pv/compat/layout.h"

/*
 * May a call gate name @sel as its target (Xen's guest_gate_selector_okay,
 * asm/desc.h)?  A guest GDT entry, whose code descriptors all have DPL 3
 * once checked; the guest's flat ring-3 code selector; or an LDT selector
 * (there is no LDT yet, so one faults).  Never one of the shim's ring-0
 * segments: a gate ignores the selector's RPL.
 */
static bool gate_selector_ok(unsigned int sel, bool compat)
{
    return (sel >> 3) < FIRST_RESERVED_GDT_ENTRY ||
           sel == (compat ? COMPAT_FLAT_KERNEL_CS : FLAT_KERNEL_CS) ||
           (sel & 4);
}

/*
 * Xen's rules, in its order:
 *  - Not present: accepted as it is.  Any use faults (#NP, or #GP for a
 *    system type), whatever the other bits say.
 *  - Present: a DPL below the guest kernel's ring (3) is raised to 3, so
 *    no descriptor grants ring 0-2.
 *  - Code and data: accepted, with no base or limit check.  Long mode
 *    ignores them, and a compatibility-mode segment addresses only the
 *    low 4 GiB, far below the shim's range (HYPERVISOR_VIRT_START).
 *  - System type 0, the upper half of a 16-byte call gate: accepted as it
 *    is (loading or calling through it faults).
 *  - A 64-bit call gate to a selector gate_selector_ok() allows, with the
 *    reserved bits 0-7 of its high word clear: accepted with DPL 0, its
 *    (fixed-up) DPL kept in the target selector's RPL.  DPL 0 means a far
 *    call or jump through it from the guest (CPL 3) faults with #GP(gate
 *    selector) before the CPU looks at the target (SDM vol. 3A, 5.8.4);
 *    Xen emulates the call from that #GP, toward a ring-3 target.  So no
 *    gate takes the guest to ring 0, and none names the shim's segments.
 *  - Every other system descriptor (LDT, TSS, interrupt and trap gates,
 *    reserved types): refused.
 * For a 32-bit guest (@compat) the kernel's ring is 1, so DPL 0 becomes
 * 1; a 64-bit code segment is refused (its kernel must not leave
 * compatibility mode); a flat segment whose limit reaches into the
 * hypervisor hole is extended to 4 GiB ("older PAE Linux guests use
 * segments limited to 0xf6800000": the compat M2P is above that, and
 * read-only anyway); a call gate's reserved bits are 5-7 only.
 */
static always_inline bool check_desc(uint64_t *d, bool compat)
{
    uint32_t a = *d, b = *d >> 32, base, limit;
    unsigned int dpl, cs;

    if ( !(b & _SEGMENT_P) )
        return true;

    dpl = MAX((b >> 13) & 3, compat ? 1u : GUEST_KERNEL_RPL);
    b = (b & ~_SEGMENT_DPL) | (dpl << 13);

    if ( (b & _SEGMENT_S) && compat )
    {
        if ( b & _SEGMENT_L )
            return false;
        base = (b & 0xff000000) | ((b & 0xff) << 16) | (a >> 16);
        limit = ((b & 0xf0000) | (a & 0xffff)) + 1;
        if ( b & _SEGMENT_G )
            limit <<= 12;               /* 0: all 4 GiB, no extension */
        if ( !base && limit > COMPAT_HYPERVISOR_VIRT_START )
        {
            a |= 0x0000ffff;
            b |= 0x000f0000;
        }
    }
    if ( !(b & _SEGMENT_S) )
    {
        switch ( (b & _SEGMENT_TYPE) >> 8 )
        {
        case 0:
            return true;

        case SYS_DESC_call_gate:
            cs = a >> 16;
            if ( !gate_selector_ok(cs, compat) || (b & (compat ? 0xe0 : 0xff)) )
                return false;
            b &= ~_SEGMENT_DPL;
            cs = (cs & ~3) | dpl;
            a = (a & 0xffff) | (cs << 16);
            break;

        default:
            return false;
        }
    }

    *d = ((uint64_t)b << 32) | a;
    return true;
}

bool check_descriptor(uint64_t *d)
{
    return check_desc(d, false);
}

bool check_descriptor_compat(uint64_t *d)
{
    return check_desc(d, true);
}
