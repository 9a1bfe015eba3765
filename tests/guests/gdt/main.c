/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * set_gdt and update_descriptor as Xen's pv/descriptor-tables.c does them:
 * valid descriptors installed and usable, DPLs below the guest kernel's
 * raised to it (3 for a 64-bit guest, 1 for a 32-bit one; in the frame
 * too), call gates kept out of ring 0 and away from the hypervisor's
 * selectors, and every hostile call -EINVAL (or -EFAULT) with nothing
 * changed.  As under Xen, a descriptor frame must be
 * mapped read-only to become one (it takes the seg_desc type), and can't
 * be mapped writable while it is one: the test writes its frames through
 * a writable mapping only while they aren't in use.
 */
#include "guest.h"

const char test_title[] = "set_gdt and update_descriptor";

#define X86_EXC_NP      11

#define NR_FRAMES       FIRST_RESERVED_GDT_PAGE
#define DESCS           512

#define DATA32          UINT64_C(0x00cff2000000ffff)    /* DPL 3 flat data */
#define DATA_4K         UINT64_C(0x0040f20000000fff)    /* DPL 3, 4 KiB */
#define CODE32          UINT64_C(0x00cffa000000ffff)    /* DPL 3 32-bit */
#define CODE32_DPL0     UINT64_C(0x00cf9a000000ffff)
#define DATA32_DPL0     UINT64_C(0x00cf92000000ffff)
#define DATA32_NP       UINT64_C(0x00cf72000000ffff)    /* not present */
#define TSS_DESC        UINT64_C(0x0000890000000067)
#define LDT_DESC        UINT64_C(0x0000820000000fff)
#define IRQ_GATE        UINT64_C(0x00008e0000000000)
#define PSEUDO_PTE      UINT64_C(0x0000000000200067)    /* shim image, RW */

#ifdef __x86_64__
/* DPL 0 raised to the guest kernel's, 3. */
#define CODE32_RAISED   CODE32
#define DATA32_RAISED   DATA32
/* A call gate's reserved bit (the 64-bit gate's bits 32-39 are). */
#define GATE_RSVD       (UINT64_C(1) << 32)
#define NULL_DS         0
#else
/* DPL 0 raised to the guest kernel's, 1. */
#define CODE32_RAISED   UINT64_C(0x00cfba000000ffff)
#define DATA32_RAISED   UINT64_C(0x00cfb2000000ffff)
/* A call gate's reserved bit (the 32-bit gate's bits 37-39 are). */
#define GATE_RSVD       (UINT64_C(1) << 37)
#define NULL_DS         FLAT_KERNEL_DS
#endif

#define SEL(idx)        (((idx) << 3) | 3)
/* A selector that may read descriptor @d: its RPL the DPL of @d. */
#define SEL_FOR(idx, d) (((idx) << 3) | (((d) >> 45) & 3))

/* A call gate's low half: target @cs, DPL @dpl, offset 0. */
#define CALL_GATE(cs, dpl) \
    (((uint64_t)(cs) << 16) | UINT64_C(0x8c0000000000) | \
     ((uint64_t)(dpl) << 45))

/* Our GDT frames; the last one doubles as an ordinary (non-GDT) page. */
static uint64_t frame[NR_FRAMES][DESCS] __attribute__((aligned(PAGE_SIZE)));
static unsigned long mfns[NR_FRAMES];

static unsigned long mfn_of(const void *va)
{
    const unsigned long *p2m = (const unsigned long *)start_info->mfn_list;

    return p2m[(unsigned long)va >> 12];
}

/* Map frame @f of ours read-only or writable again (update_va_mapping). */
static long map_frame(unsigned int f, bool rw)
{
    uint64_t pte = ((uint64_t)mfns[f] << 12) | 0x25 | (rw ? 0x42 : 0);

    return hypercall_update_va_mapping((unsigned long)frame[f], pte,
                                       UVMF_INVLPG | UVMF_LOCAL);
}

static void map_all(bool rw)
{
    unsigned int f;

    for ( f = 0; f < NR_FRAMES; f++ )
        if ( map_frame(f, rw) )
            test_error("mapping frame %u %s failed", f, rw ? "rw" : "ro");
}

static uint64_t pa_of(unsigned int f, unsigned int idx)
{
    return ((uint64_t)mfns[f] << 12) + idx * 8;
}

/* The access rights the CPU reads for @sel, or ~0 if LAR refuses it. */
static unsigned int lar(unsigned int sel)
{
    unsigned int ar = 0;
    bool ok;

    asm volatile ( "lar %[sel], %[ar]; setz %[ok]"
                   : [ar] "+r" (ar), [ok] "=qm" (ok) : [sel] "r" (sel) );
    /* Bit 8 is "accessed", which the CPU sets when it loads a selector. */
    return ok ? ar & ~0x100 : ~0u;
}

/* The access rights LAR reports for descriptor @d. */
static unsigned int ar_of(uint64_t d)
{
    return (d >> 32) & 0x00f0fe00;
}

static exinfo_t load_ds(unsigned int sel)
{
    return TRY("mov %w[sel], %%ds", [sel] "r" (sel));
}

static exinfo_t load_es(unsigned int sel)
{
    return TRY("mov %w[sel], %%es", [sel] "r" (sel));
}

static unsigned int read_ds(void)
{
    unsigned int sel;

    asm volatile ( "mov %%ds, %0" : "=r" (sel) );
    return sel;
}

/* A far call through gate @sel (m16:32: the offset is ignored). */
static exinfo_t lcall(unsigned int sel)
{
    struct __attribute__((packed)) { uint32_t off; uint16_t sel; } ptr = {
        0, sel,
    };
    return TRY("lcall *%[ptr]", [ptr] "m" (ptr));
}

static void check_fault(const char *what, exinfo_t ex,
                        unsigned int vec, uint32_t ec)
{
    if ( ex == EXINFO(vec, ec) )
        printf("  %-32s vector %u, error code %#x\n", what, vec, ec);
    else if ( !ex )
        test_fail("%s: no exception, expected vector %u", what, vec);
    else
        test_fail("%s: vector %u error code %#x, expected %u and %#x",
                  what, exinfo_vector(ex), exinfo_error(ex), vec, ec);
}

#define check_eq(expr, want) do {                                           \
    unsigned long long got_ = (expr), want_ = (want);                       \
                                                                            \
    if ( got_ != want_ )                                                    \
        test_fail("%s: %#llx, expected %#llx", #expr, got_, want_);         \
} while ( 0 )

/*
 * The GDT test_install() made, as the CPU sees it (LAR reads not-present
 * descriptors too) and as the frame holds it.
 */
static void check_gdt_unchanged(const char *after)
{
    static const uint64_t want[] = {
        0, DATA32, CODE32, CODE32_RAISED, DATA32_NP, 0, 0, 0,
    };
    unsigned int i;

    for ( i = 1; i < ARRAY_SIZE(want); i++ )
        if ( lar(SEL_FOR(i, want[i])) !=
             (want[i] ? ar_of(want[i]) : ~0u) || frame[0][i] != want[i] )
            test_fail("after %s: entry %u: access rights %#x, frame %#llx, "
                      "expected %#llx", after, i, lar(SEL_FOR(i, want[i])),
                      (unsigned long long)frame[0][i],
                      (unsigned long long)want[i]);
    if ( lsl(SEL(1)) != 0xffffffffUL )
        test_fail("after %s: limit of entry 1 %#lx", after, lsl(SEL(1)));
}

static void test_install(void)
{
    unsigned int i;

    for ( i = 0; i < NR_FRAMES; i++ )
        mfns[i] = mfn_of(frame[i]);

    frame[0][1] = DATA32;
    frame[0][2] = CODE32;
    frame[0][3] = CODE32_DPL0;      /* Xen raises the DPL to the kernel's */
    frame[0][4] = DATA32_NP;

    /* Writable, a frame can't be a descriptor frame; read-only it can. */
    check_rc(hypercall_set_gdt(mfns, 5), -XEN_EINVAL);
    map_all(false);
    check_rc(hypercall_set_gdt(mfns, 5), 0);

    check_eq(lar(SEL(1)), ar_of(DATA32));
    check_eq(lar(SEL(2)), ar_of(CODE32));
    check_eq(lar(SEL_FOR(3, CODE32_RAISED)), ar_of(CODE32_RAISED));
    /* Fixed up in the frame, as Xen does. */
    check_eq(frame[0][3], CODE32_RAISED);
    check_eq(lsl(SEL(1)), 0xffffffffUL);

    /* The data selector works in %ds and %es. */
    check_rc(load_ds(SEL(1)), 0);
    check_rc(load_es(SEL(1)), 0);
    check_eq(read_ds(), SEL(1));
    {
        static volatile uint32_t word = 0x600df00d;
        uint32_t v;

        asm volatile ( "movl %%ds:%1, %0; movl %0, %%es:%1"
                       : "=&r" (v), "+m" (word) );
        check_eq(v, 0x600df00d);
    }

    /* Entries not present or never installed fault in the guest. */
    check_fault("es: not-present descriptor", load_es(SEL(4)),
                X86_EXC_NP, 4 << 3);
    check_fault("es: empty entry", load_es(SEL(5)), X86_EXC_GP, 5 << 3);
    check_fault("es: empty, same frame", load_es(SEL(100)), X86_EXC_GP,
                100 << 3);
    check_fault("es: frame never given", load_es(SEL(600)), X86_EXC_GP,
                600 << 3);
    check_fault("es: the shim's ring-0 data", load_es(0xe013), X86_EXC_GP,
                0xe010);
    check_gdt_unchanged("the faults");
}

static void test_update(void)
{
    /* A not-present entry made present: usable at once. */
    check_rc(hypercall_update_descriptor(pa_of(0, 4), DATA32), 0);
    check_eq(frame[0][4], DATA32);
    check_rc(load_es(SEL(4)), 0);
    /* Entry 4 goes again below, and a 32-bit kernel's exception entry
     * saves and reloads %es: give it the flat one. */
    check_rc(load_es(SEL(1)), 0);

    /* A new limit, seen by the CPU; %ds keeps its selector. */
    check_rc(hypercall_update_descriptor(pa_of(0, 1), DATA_4K), 0);
    check_eq(lsl(SEL(1)), 0xfff);
    check_eq(read_ds(), SEL(1));
    check_rc(hypercall_update_descriptor(pa_of(0, 1), DATA32), 0);
    check_eq(lsl(SEL(1)), 0xffffffffUL);

    /* DPL 0 raised, in the frame too. */
    check_rc(hypercall_update_descriptor(pa_of(0, 5), DATA32_DPL0), 0);
    check_eq(frame[0][5], DATA32_RAISED);
    check_eq(lar(SEL_FOR(5, DATA32_RAISED)), ar_of(DATA32_RAISED));

    /* Past `entries` but in a GDT frame: the CPU sees it, as in Xen. */
    check_rc(hypercall_update_descriptor(pa_of(0, 100), CODE32), 0);
    check_eq(lar(SEL(100)), ar_of(CODE32));

    /* A frame that isn't in the GDT: just memory. */
    check_rc(hypercall_update_descriptor(pa_of(13, 7), DATA32), 0);
    check_eq(frame[13][7], DATA32);
    check_eq(lar(SEL(13 * DESCS + 7)), ~0u);

    /* In use, a descriptor frame can't be made writable (seg_desc). */
    check_rc(map_frame(0, true), -XEN_EBUSY);   /* as get_page_from_l1e */
    check_fault("write to a GDT frame", probe_write(&frame[0][6]),
                X86_EXC_PF, 3);
    check_eq(lar(SEL(6)), ~0u);

    /* Back to what check_gdt_unchanged() expects. */
    check_rc(hypercall_update_descriptor(pa_of(0, 4), DATA32_NP), 0);
    check_rc(hypercall_update_descriptor(pa_of(0, 5), 0), 0);
    check_rc(hypercall_update_descriptor(pa_of(0, 100), 0), 0);
    check_gdt_unchanged("update_descriptor");
}

/*
 * Xen keeps call gates to guest code: DPL forced to 0 so that using one
 * faults (Xen then emulates it), the original DPL in the target's RPL.
 */
static void test_call_gates(void)
{
    check_rc(hypercall_update_descriptor(pa_of(0, 6), CALL_GATE(0x10, 3)), 0);
    check_eq(frame[0][6], CALL_GATE(0x13, 0));
#ifdef __x86_64__
    /* (For a 32-bit guest Xen emulates the gate: another subject.) */
    check_fault("lcall through the gate", lcall(SEL(6)), X86_EXC_GP,
                6 << 3);
#endif

    check_rc(hypercall_update_descriptor(pa_of(0, 8), CALL_GATE(FLAT_KERNEL_CS, 0)), 0);
    check_eq(frame[0][8], CALL_GATE(FLAT_KERNEL_CS, 0));

    /* Never to the hypervisor's own segments. */
    check_rc(hypercall_update_descriptor(pa_of(0, 10), CALL_GATE(0xe008, 3)),
             -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(pa_of(0, 10), CALL_GATE(0xe038, 0)),
             -XEN_EINVAL);
    check_eq(frame[0][10], 0);

    check_rc(hypercall_update_descriptor(pa_of(0, 6), 0), 0);
    check_rc(hypercall_update_descriptor(pa_of(0, 8), 0), 0);
    check_fault("lcall through an empty entry", lcall(SEL(6)), X86_EXC_GP,
                6 << 3);
}

/* A frame holding one bad descriptor at @idx, and a DPL 0 one. */
static void check_bad_frame(const char *what, unsigned int idx, uint64_t bad)
{
    unsigned long list[2] = { mfns[0], mfns[12] };

    check_rc(map_frame(12, true), 0);
    frame[12][1] = DATA32_DPL0;
    frame[12][idx] = bad;
    check_rc(map_frame(12, false), 0);
    if ( hypercall_set_gdt(&list[1], 3) != -XEN_EINVAL ||
         hypercall_set_gdt(list, 1024) != -XEN_EINVAL )
        test_fail("set_gdt accepted a frame with %s", what);
    /* Nothing changed: no fix-up written, the old GDT in place. */
    check_eq(frame[12][1], DATA32_DPL0);
    check_gdt_unchanged(what);
    check_rc(map_frame(12, true), 0);
    frame[12][idx] = 0;
    frame[12][1] = 0;
    check_rc(map_frame(12, false), 0);
}

/* Frame @i of the guest's bootstrap page tables. */
static unsigned long pt_mfn(unsigned int i)
{
    return mfn_of((const char *)start_info->pt_base + i * PAGE_SIZE);
}

static void test_set_gdt_hostile(void)
{
    unsigned long list[2] = { mfns[0], 0 };
    static const unsigned long bad_mfns[] = {
        0, 0x200 /* the shim's image */, ~0UL,
#ifdef __x86_64__
        1UL << 40,
#else
        1UL << 30,
#endif
    };
    unsigned int i;

    check_rc(hypercall_set_gdt(mfns, FIRST_RESERVED_GDT_ENTRY + 1), -XEN_EINVAL);
    check_rc(hypercall_set_gdt(mfns, ~0u), -XEN_EINVAL);
    check_rc(hypercall_set_gdt(BAD_UNMAPPED, 1), -XEN_EFAULT);
    check_rc(hypercall_set_gdt(BAD_XEN, 1), -XEN_EFAULT);
    check_gdt_unchanged("bad counts and lists");

    for ( i = 0; i < ARRAY_SIZE(bad_mfns); i++ )
    {
        list[1] = bad_mfns[i];
        check_rc(hypercall_set_gdt(&list[1], 1), -XEN_EINVAL);
        check_rc(hypercall_set_gdt(list, 513), -XEN_EINVAL);
    }
    /* The guest's page tables can't be descriptor frames. */
    for ( i = 0; i < start_info->nr_pt_frames; i++ )
    {
        list[1] = pt_mfn(i);
        check_rc(hypercall_set_gdt(&list[1], 1), -XEN_EINVAL);
    }
    check_gdt_unchanged("frames that aren't ours");

    check_bad_frame("a TSS", 2, TSS_DESC);
    check_bad_frame("an LDT", 2, LDT_DESC);
    check_bad_frame("an interrupt gate", 2, IRQ_GATE);
    check_bad_frame("a call gate to 0xe008", 2, CALL_GATE(0xe008, 3));
    check_bad_frame("a call gate with reserved bits",
                    2, CALL_GATE(0x10, 3) | GATE_RSVD);
    /* Xen checks the whole frame, not just the first `entries`. */
    check_bad_frame("a TSS past entries", 300, TSS_DESC);

    /* Not present is harmless whatever the type. */
    check_rc(map_frame(12, true), 0);
    frame[12][1] = DATA32_DPL0;
    frame[12][2] = TSS_DESC & ~(UINT64_C(1) << 47);
    check_rc(map_frame(12, false), 0);
    check_rc(hypercall_set_gdt(&mfns[12], 3), 0);
    check_eq(frame[12][1], DATA32_RAISED);
    check_eq(lar(SEL_FOR(1, DATA32_RAISED)), ar_of(DATA32_RAISED));
    check_rc(hypercall_set_gdt(mfns, 5), 0);      /* frame 12 leaves the GDT */
    check_rc(map_frame(12, true), 0);
    frame[12][1] = frame[12][2] = 0;
    check_rc(map_frame(12, false), 0);

#ifdef __x86_64__
    /* Xen takes `entries` as an unsigned int. */
    check_rc(hypercall_set_gdt(mfns, (1UL << 32) | 5), 0);
    check_gdt_unchanged("set_gdt with high bits in entries");
#endif
}

static void test_update_hostile(void)
{
    unsigned int i;

    for ( i = 1; i < 8; i++ )
        check_rc(hypercall_update_descriptor(pa_of(0, 6) + i, DATA32), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(0x200000, DATA32), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(0, DATA32), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(UINT64_C(1) << 52, DATA32), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(~7UL, DATA32), -XEN_EINVAL);
    /* A "not present descriptor" into a page table would map the shim. */
    for ( i = 0; i < start_info->nr_pt_frames; i++ )
        check_rc(hypercall_update_descriptor((uint64_t)pt_mfn(i) << 12, PSEUDO_PTE),
                 -XEN_EINVAL);

    check_rc(hypercall_update_descriptor(pa_of(0, 6), TSS_DESC), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(pa_of(0, 6), LDT_DESC), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(pa_of(0, 6), IRQ_GATE), -XEN_EINVAL);
    check_rc(hypercall_update_descriptor(pa_of(13, 6), TSS_DESC), -XEN_EINVAL);
    check_eq(frame[0][6], 0);
    check_eq(frame[13][6], 0);
    check_gdt_unchanged("hostile update_descriptor");
}

/* The largest GDT, then none at all. */
static void test_limits(void)
{
    check_rc(map_frame(13, true), 0);
    frame[13][DESCS - 1] = DATA32;
    check_rc(map_frame(13, false), 0);
    check_rc(hypercall_set_gdt(mfns, FIRST_RESERVED_GDT_ENTRY), 0);
    check_eq(lar(SEL(FIRST_RESERVED_GDT_ENTRY - 1)), ar_of(DATA32));
    check_gdt_unchanged("the largest set_gdt");

    /* No frames: Xen copies nothing, so even a bad list is fine. */
    check_rc(hypercall_set_gdt(BAD_XEN, 0), 0);
    check_eq(lar(SEL(1)), ~0u);
    /*
     * %ds keeps its selector (and cached descriptor) until reloaded:
     * with 0 (the flat kernel one for a 32-bit guest, whose C code
     * can't run on a null %ds).
     */
    check_eq(read_ds(), SEL(1));
    check_rc(load_ds(NULL_DS), 0);
    check_rc(load_es(NULL_DS), 0);
    check_eq(lar(SEL(FIRST_RESERVED_GDT_ENTRY - 1)), ~0u);
    check_fault("ds after an empty set_gdt", load_ds(SEL(1)), X86_EXC_GP,
                1 << 3);
    check_rc(hypercall_update_descriptor(pa_of(0, 1), DATA32), 0);
    check_eq(lar(SEL(1)), ~0u);

    /* Out of use, the frames can be writable again. */
    map_all(true);
}

void test_main(void)
{
    test_install();
    test_update();
    test_call_gates();
    test_set_gdt_hostile();
    test_update_hostile();
    test_limits();

    test_success();
}
