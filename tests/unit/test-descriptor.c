/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of check_descriptor() (pv/check-descriptor.c): one case per
 * rule of Xen's check for a 64-bit PV guest, accepted, refused or fixed up.
 */
#include "tests/unit/unit.h"

#include "pv/check-descriptor.c"

/* Code and data (SDM vol. 3A, 3.4.5), DPL 3, flat 4 GiB. */
#define DATA32      0x00cff2000000ffffULL   /* read/write, accessed clear */
#define CODE32      0x00cffa000000ffffULL   /* execute/read */
#define CODE64      0x00affa000000ffffULL   /* L set */
#define DPL_MASK    ((uint64_t)_SEGMENT_DPL << 32)
#define P_BIT       ((uint64_t)_SEGMENT_P << 32)

static uint64_t with_dpl(uint64_t d, unsigned int dpl)
{
    return (d & ~DPL_MASK) | ((uint64_t)dpl << 45);
}

/* A present system descriptor of @type, DPL @dpl, other bits @extra. */
static uint64_t sys_desc(unsigned int type, unsigned int dpl, uint64_t extra)
{
    return extra | P_BIT | ((uint64_t)type << 40) | ((uint64_t)dpl << 45);
}

/* A 64-bit call gate's low 8 bytes: target @sel:0x12345678, DPL @dpl. */
static uint64_t call_gate(unsigned int sel, unsigned int dpl)
{
    return sys_desc(SYS_DESC_call_gate, dpl,
                    0x1234000000005678ULL | ((uint64_t)sel << 16));
}

/* check_descriptor(@in) must return @ok and leave @want. */
static void check(uint64_t in, bool ok, uint64_t want)
{
    uint64_t d = in;

    CHECK_EQ(check_descriptor(&d), ok);
    CHECK_EQ(d, want);
}

static void accept(uint64_t d)
{
    check(d, true, d);
}

static void refuse(uint64_t d)
{
    check(d, false, d);
}

/* Not present: anything goes, untouched (it faults on any use). */
static void not_present_accepted(void)
{
    accept(0);
    accept(~P_BIT);
    accept(with_dpl(CODE64, 0) & ~P_BIT);
    accept(sys_desc(SYS_DESC_tss_avail, 0, 0) & ~P_BIT);
    accept(sys_desc(SYS_DESC_ldt, 0, 0) & ~P_BIT);
    accept(sys_desc(SYS_DESC_irq_gate, 0, 0) & ~P_BIT);
    accept(call_gate(0xe008, 3) & ~P_BIT);
}

/* DPL 3 code and data pass as they are. */
static void dpl3_code_data_accepted(void)
{
    unsigned int type;

    accept(DATA32);
    accept(CODE32);
    accept(CODE64);
    /* Every code/data type: expand-down, conforming, accessed... */
    for ( type = 0; type < 16; type++ )
        accept((DATA32 & ~((uint64_t)_SEGMENT_TYPE << 32)) |
               ((uint64_t)type << 40));
}

/* DPL 0-2 code and data become DPL 3, nothing else changes. */
static void low_dpl_fixed_to_3(void)
{
    unsigned int dpl;

    for ( dpl = 0; dpl < 3; dpl++ )
    {
        check(with_dpl(DATA32, dpl), true, DATA32);
        check(with_dpl(CODE32, dpl), true, CODE32);
        check(with_dpl(CODE64, dpl), true, CODE64);
    }
    /* The ring-0 descriptors the shim itself uses, as a guest would copy. */
    check(0x00af9a000000ffffULL, true, 0x00affa000000ffffULL);
    check(0x00cf92000000ffffULL, true, 0x00cff2000000ffffULL);
}

/* No base or limit check for a 64-bit guest: bases above 4 GiB can't be. */
static void base_limit_not_checked(void)
{
    accept(0xffcff2ffffffffffULL);          /* base 0xffffffff, 4 GiB */
    accept(0xff4ffaff0000ffffULL);          /* base 0xffff0000, 1 MiB */
    accept(0x00effa000000ffffULL);          /* L and D both set */
}

/* System type 0 (a call gate's upper half) passes untouched, DPL too. */
static void type0_accepted_unchanged(void)
{
    accept(sys_desc(0, 0, 0));
    accept(sys_desc(0, 3, 0xffffffffULL));
    accept(0x00000000ffffffffULL);
}

/* Every system type but 0 and the call gate, at every DPL. */
static void other_system_types_refused(void)
{
    unsigned int type, dpl;

    for ( type = 1; type < 16; type++ )
    {
        if ( type == SYS_DESC_call_gate )
            continue;
        for ( dpl = 0; dpl < 4; dpl++ )
            refuse(sys_desc(type, dpl, 0x0000000000000067ULL));
    }
}

static void tss_ldt_refused(void)
{
    refuse(0x0000890000000067ULL);          /* TSS, DPL 0 */
    refuse(0x0000e90000000067ULL);          /* TSS, DPL 3 */
    refuse(0x00008b0000000067ULL);          /* busy TSS */
    refuse(0x0000820000000fffULL);          /* LDT */
    refuse(0x0000e20000000fffULL);          /* LDT, DPL 3 */
    refuse(sys_desc(SYS_DESC_irq_gate, 3, 0));
    refuse(sys_desc(SYS_DESC_trap_gate, 3, 0));
}

/*
 * A call gate to a guest selector: DPL forced to 0 (use from ring 3
 * faults), the DPL (fixed up to 3) kept in the target's RPL.
 */
static void call_gate_to_guest_fixed(void)
{
    unsigned int dpl;

    for ( dpl = 0; dpl < 4; dpl++ )
    {
        check(call_gate(0x0010, dpl), true, call_gate(0x0013, 0));
        check(call_gate(0x0013, dpl), true, call_gate(0x0013, 0));
        check(call_gate(0x0011, dpl), true, call_gate(0x0013, 0));
    }
    /* The last guest GDT entry. */
    check(call_gate(0xdff8, 3), true, call_gate(0xdffb, 0));
}

/* FLAT_KERNEL_CS exactly, or an LDT selector, is allowed too. */
static void call_gate_flat_and_ldt(void)
{
    check(call_gate(FLAT_KERNEL_CS, 3), true, call_gate(FLAT_KERNEL_CS, 0));
    check(call_gate(0xe00c, 0), true, call_gate(0xe00f, 0));
    check(call_gate(0x0004, 3), true, call_gate(0x0007, 0));
}

/* Targets among the shim's reserved entries, RPL or not: refused. */
static void call_gate_to_shim_refused(void)
{
    static const unsigned int sels[] = {
        0xe000, 0xe008, 0xe00b, 0xe010, 0xe013, 0xe018, 0xe023, 0xe02b,
        0xe030, 0xe038, 0xe040, 0xe050, 0xe060, 0xeff8, 0xfff8,
    };
    unsigned int i, dpl;

    for ( i = 0; i < ARRAY_SIZE(sels); i++ )
        for ( dpl = 0; dpl < 4; dpl++ )
            refuse(call_gate(sels[i], dpl));
}

/* Bits 0-7 of the high word are reserved in a 64-bit call gate. */
static void call_gate_reserved_bits_refused(void)
{
    unsigned int bit;

    for ( bit = 32; bit < 40; bit++ )
        refuse(call_gate(0x0010, 3) | (1ULL << bit));
}

/* ---- a 32-bit PAE guest's rules (check_descriptor_compat()) ---- */

static void check32(uint64_t in, bool ok, uint64_t want)
{
    uint64_t d = in;

    CHECK_EQ(check_descriptor_compat(&d), ok);
    CHECK_EQ(d, want);
}

/* Ring 1 is the kernel's: DPL 0 becomes 1, DPL 1-3 stay. */
static void compat_dpl_fixed_to_1(void)
{
    check32(with_dpl(DATA32, 0), true, with_dpl(DATA32, 1));
    check32(with_dpl(CODE32, 0), true, with_dpl(CODE32, 1));
    check32(with_dpl(CODE32, 1), true, with_dpl(CODE32, 1));
    check32(with_dpl(DATA32, 2), true, with_dpl(DATA32, 2));
    check32(DATA32, true, DATA32);
    /* Not present: untouched, even 64-bit code. */
    check32(with_dpl(CODE64, 0) & ~P_BIT, true, with_dpl(CODE64, 0) & ~P_BIT);
}

/* No 64-bit code: the kernel must stay in compatibility mode. */
static void compat_64bit_code_refused(void)
{
    check32(CODE64, false, CODE64);
    check32(with_dpl(CODE64, 1), false, with_dpl(CODE64, 1));
}

/*
 * A flat segment reaching into the hypervisor hole (old PAE Linux's
 * limit 0xf67fffff) gets all 4 GiB; one with a base, or one that stops
 * below the hole, keeps its limit.
 */
static void compat_flat_limit_extended(void)
{
    /* Limit 0xf67ff pages, G: ends at 0xf67fffff. */
    check32(0x00cff200000067ffULL, true, DATA32);
    /* Ending exactly at the hole (0xf57ff pages): unchanged. */
    check32(0x00cff200000057ffULL, true, 0x00cff200000057ffULL);
    /* Based at 4 KiB: unchanged. */
    check32(0x00cff200100067ffULL, true, 0x00cff200100067ffULL);
    /* Byte granular, 1 MiB: unchanged. */
    check32(0x004ff2000000ffffULL, true, 0x004ff2000000ffffULL);
}

/*
 * Call gates: to the compat flat kernel CS or a guest selector, reserved
 * bits 5-7 only (a 32-bit gate's parameter count may be set); never to
 * the shim's.
 */
static void compat_call_gates(void)
{
    check32(call_gate(COMPAT_FLAT_KERNEL_CS, 3), true,
            sys_desc(SYS_DESC_call_gate, 0, 0x1234000000005678ULL |
                     ((uint64_t)((COMPAT_FLAT_KERNEL_CS & ~3) | 3) << 16)));
    check32(call_gate(0xe008, 3), false, call_gate(0xe008, 3));
    check32(call_gate(0x0010, 3) | (3ULL << 32), true,
            sys_desc(SYS_DESC_call_gate, 0, 0x1234000000105678ULL |
                     (3ULL << 32)) | (3ULL << 16));
    check32(call_gate(0x0010, 3) | (0x20ULL << 32), false,
            call_gate(0x0010, 3) | (0x20ULL << 32));
}

int main(void)
{
    RUN(not_present_accepted);
    RUN(dpl3_code_data_accepted);
    RUN(low_dpl_fixed_to_3);
    RUN(base_limit_not_checked);
    RUN(type0_accepted_unchanged);
    RUN(other_system_types_refused);
    RUN(tss_ldt_refused);
    RUN(call_gate_to_guest_fixed);
    RUN(call_gate_flat_and_ldt);
    RUN(call_gate_to_shim_refused);
    RUN(call_gate_reserved_bits_refused);
    RUN(compat_dpl_fixed_to_1);
    RUN(compat_64bit_code_refused);
    RUN(compat_flat_limit_extended);
    RUN(compat_call_gates);
    UNIT_EXIT();
}
