/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Privileged instructions from the guest kernel (ring 3), as Xen emulates
 * them for a PV domU: CR0/CR2/CR3/CR4 reads, TS through CR0 and clts,
 * CR2 writes, CR3 writes as NEW_BASEPTR (a frame that isn't a valid L4 is
 * #GP(0)), wbinvd ignored, debug registers through the set_debugreg
 * rules; hlt, cli/sti, in/out, descriptor-table loads, invlpg keep their
 * #GP(0).  `int $n` reaches the trap table entry when its DPL allows,
 * else #GP with error code (n << 3) | 2.  A 32-bit guest's kernel is
 * ring 1 only: code it runs in ring 2 gets #GP(0) for all of them, as
 * Xen's guest_kernel_mode() is ring_1().
 */
#include "guest.h"
#include "mm.h"
#include "user.h"

const char test_title[] = "Privileged instructions: emulated and refused";

#define X86_CR0_PE      (1UL << 0)
#define X86_CR0_TS      (1UL << 3)
#define X86_CR0_WP      (1UL << 16)
#define X86_CR0_PG      (1UL << 31)
#define X86_CR4_PAE     (1UL << 5)
#define X86_CR4_PGE     (1UL << 7)
#define X86_CR4_VMXE    (1UL << 13)
#define X86_CR4_OSXSAVE (1UL << 18)
#define X86_CR4_SMEP    (1UL << 20)
#define X86_CR4_SMAP    (1UL << 21)
#define DR7_DEFAULT     0x400UL
#define DR7_GD          (1UL << 13)
#define IDT_ERR(n)      (((n) << 3) | 2)

#define READ_CR(n) ({                                                       \
    unsigned long v_;                                                       \
    asm volatile ( "mov %%cr" #n ", %0" : "=r" (v_) );                      \
    v_;                                                                     \
})

static void check_fault(const char *what, exinfo_t ex, unsigned int vec,
                        uint32_t ec)
{
    if ( ex == EXINFO(vec, ec) )
        printf("  %-26s vector %u, error code %#x\n", what, vec, ec);
    else
        test_fail("%s: exinfo %#lx, expected vector %u error code %#x",
                  what, ex, vec, ec);
}

static void test_cr_reads(void)
{
    const unsigned long *mfns = (const unsigned long *)start_info->mfn_list;
    unsigned long l4_mfn = mfns[start_info->pt_base / PAGE_SIZE];
    unsigned long cr0 = READ_CR(0), cr4 = READ_CR(4);
    uint32_t a, b, c, d;

    /* virt_base is 0 for our kernels: pt_base >> 12 is the L4's pfn. */
    check_rc(READ_CR(3), xen_pfn_to_cr3(l4_mfn));
    printf("  cr0 %#lx cr3 %#lx cr4 %#lx\n", cr0, READ_CR(3), cr4);

    if ( (cr0 & (X86_CR0_PE | X86_CR0_PG | X86_CR0_WP)) !=
         (X86_CR0_PE | X86_CR0_PG | X86_CR0_WP) || (cr0 & X86_CR0_TS) )
        test_fail("cr0 %#lx: want PE PG WP, no TS", cr0);
    if ( !(cr4 & X86_CR4_PAE) ||
         (cr4 & (X86_CR4_VMXE | X86_CR4_SMEP | X86_CR4_SMAP |
                 X86_CR4_OSXSAVE)) )
        test_fail("cr4 %#lx: want PAE; no VMXE SMEP SMAP OSXSAVE", cr4);

    /* CR4.PGE and CPUID's PGE both follow global-pages. */
    asm volatile ( XEN_CPUID : "=a" (a), "=b" (b), "=c" (c), "=d" (d)
                   : "0" (1), "2" (0) );
    check_rc(!!(cr4 & X86_CR4_PGE), !!(d & (1u << 13)));

    /* CR2: the last #PF's address; the guest may write it. */
    probe_read(BAD_UNMAPPED);
    check_rc(READ_CR(2), (unsigned long)BAD_UNMAPPED);
    asm volatile ( "mov %0, %%cr2" :: "r" (0x1234UL) );
    check_rc(READ_CR(2), 0x1234);
}

static void test_ts(void)
{
    unsigned long cr0 = READ_CR(0);

    check_rc(HYPERCALL(__HYPERVISOR_fpu_taskswitch, 1, 0, 0, 0, 0), 0);
    check_rc(READ_CR(0), cr0 | X86_CR0_TS);
    asm volatile ( "clts" );
    check_rc(READ_CR(0), cr0);
    /* An FPU instruction runs: TS really is clear. */
    check_rc(TRY("fnop", "i" (0)), 0);

    asm volatile ( "mov %0, %%cr0" :: "r" (cr0 | X86_CR0_TS) );
    check_rc(READ_CR(0), cr0 | X86_CR0_TS);
    check_fault("fnop with TS", TRY("fnop", "i" (0)), 7, 0);
    check_rc(READ_CR(0), cr0);          /* the #NM cleared it */
    asm volatile ( "mov %0, %%cr0" :: "r" (cr0) );
    check_fault("mov to cr0: WP off",
                TRY("mov %1, %%cr0", "r" (cr0 & ~X86_CR0_WP)), 13, 0);
    check_rc(READ_CR(0), cr0);
}

#ifdef __x86_64__
/* A fresh L4 with the running kernel's guest half. */
static unsigned long copy_boot_l4(void)
{
    unsigned long l4 = alloc_frame();
    const uint64_t *boot = (const uint64_t *)start_info->pt_base;

    for ( unsigned int s = 0; s < 256; s++ )
        frame_set_pte(l4, s, boot[s]);
    return l4;
}
#else
/*
 * A fresh PAE L3 with the running kernel's slots 0-2; slot 3's L2 holds
 * the hypervisor's mappings and may be no other L3's: a fresh one.
 */
static unsigned long copy_boot_l4(void)
{
    unsigned long l3 = alloc_frame();
    const uint64_t *boot = (const uint64_t *)start_info->pt_base;

    for ( unsigned int s = 0; s < 3; s++ )
        frame_set_pte(l3, s, boot[s]);
    frame_set_pte(l3, 3, pte_make(alloc_frame(), _PAGE_PRESENT));
    return l3;
}
#endif

#define WRITE_CR3(val) TRY("mov %1, %%cr3", "r" (val))

static void test_cr3_write(void)
{
    unsigned long boot = pt_base_mfn(), l4 = copy_boot_l4();
    unsigned long junk = alloc_frame(), l1 = new_table(1, 0, 0);

    /* The same table: a flush; low bits (PWT, PCD) are ignored. */
    check_rc(WRITE_CR3(xen_pfn_to_cr3(boot)), 0);
#ifdef __x86_64__
    check_rc(WRITE_CR3(xen_pfn_to_cr3(boot) | 0x18), 0);
#else
    /* Not in the extended format (xen-x86_32.h): pfn bits 20-31 there. */
    check_fault("mov to cr3: pfn | 0x1800000",
                WRITE_CR3(xen_pfn_to_cr3(boot) | 0x18), 13, 0);
#endif
    check_rc(READ_CR(3), xen_pfn_to_cr3(boot));

    /* A fresh L4 is validated on the way in and becomes CR3. */
    check_rc(WRITE_CR3(xen_pfn_to_cr3(l4)), 0);
    check_rc(READ_CR(3), xen_pfn_to_cr3(l4));
    check_rc(pin_table(1, l4), -XEN_EINVAL);            /* the top level */
    check_rc(WRITE_CR3(xen_pfn_to_cr3(boot)), 0);
    check_rc(READ_CR(3), xen_pfn_to_cr3(boot));
    frame_set_pte(l4, 0, 0);                /* writable: released */

    /* Not an L4: junk, an L1, the hypervisor's, beyond RAM, unaligned. */
    frame_fill(junk, 0xff);
    check_fault("mov to cr3: junk",
                WRITE_CR3(xen_pfn_to_cr3(junk)), 13, 0);
    check_fault("mov to cr3: an L1",
                WRITE_CR3(xen_pfn_to_cr3(l1)), 13, 0);
    check_fault("mov to cr3: hypervisor",
                WRITE_CR3(xen_pfn_to_cr3(hypervisor_frame())), 13, 0);
    check_fault("mov to cr3: beyond RAM",
                WRITE_CR3(xen_pfn_to_cr3(maximum_ram_page())), 13, 0);
    check_fault("mov to cr3: ~0", WRITE_CR3(~0UL), 13, 0);
    check_rc(READ_CR(3), xen_pfn_to_cr3(boot));
    frame_fill(junk, 0);                    /* writable: left no type */
    check_rc(unpin_table(l1), 0);
}

static void test_debugregs(void)
{
    unsigned long v;

    asm volatile ( "mov %%db7, %0" : "=r" (v) );
    check_rc(v, DR7_DEFAULT);
    asm volatile ( "mov %0, %%db0" :: "r" (0x100000UL) );
    asm volatile ( "mov %%db0, %0" : "=r" (v) );
    check_rc(v, 0x100000);
    check_rc(HYPERCALL(__HYPERVISOR_get_debugreg, 0, 0, 0, 0, 0), 0x100000);
    asm volatile ( "mov %0, %%db0" :: "r" (0UL) );
    check_fault("mov to dr7: GD", TRY("mov %1, %%db7", "r" (DR7_GD)), 13, 0);
#ifdef __x86_64__
    check_fault("mov to dr0: hypervisor",
                TRY("mov %1, %%db0", "r" (HYPERVISOR_VIRT_START)), 13, 0);
#else
    /* Xen's access_ok() passes every 32-bit address (see debugreg). */
    check_rc(TRY("mov %1, %%db0", "r" (HYPERVISOR_VIRT_START)), 0);
    asm volatile ( "mov %0, %%db0" :: "r" (0UL) );
#endif
#ifdef __x86_64__
    /* mov %dr8, %rax: REX.R names a register that doesn't exist. */
    check_fault("mov from dr8", TRY(".byte 0x44, 0x0f, 0x21, 0xc0", "i" (0)),
                6, 0);
#endif
}

static void test_refused(void)
{
    static const struct { uint16_t limit; uint64_t base; } __attribute__((
        packed)) dt = { 0, 0 };

    check_rc(TRY("wbinvd", "i" (0)), 0);
    check_fault("hlt", TRY("hlt", "i" (0)), 13, 0);
    check_fault("cli", TRY("cli", "i" (0)), 13, 0);
    check_fault("sti", TRY("sti", "i" (0)), 13, 0);
    check_fault("inb $0x80", TRY("inb $0x80, %%al", "i" (0)), 13, 0);
    check_fault("outb %al, %dx", TRY("outb %%al, %%dx", "d" (0x80)), 13, 0);
    check_fault("inl %dx", TRY("inl %%dx, %%eax", "d" (0xcf8)), 13, 0);
    check_fault("lgdt", TRY("lgdt %1", "m" (dt)), 13, 0);
    check_fault("lidt", TRY("lidt %1", "m" (dt)), 13, 0);
    check_fault("lldt", TRY("lldt %w1", "r" (0)), 13, 0);
    check_fault("ltr", TRY("ltr %w1", "r" (0)), 13, 0);
    check_fault("invlpg", TRY("invlpg (%1)", "r" (0x100000UL)), 13, 0);
    check_fault("invd", TRY("invd", "i" (0)), 13, 0);
#ifdef __x86_64__
    check_fault("mov %cr8", TRY("mov %%cr8, %%rax", "i" (0)), 13, 0);
#endif
}

static long set_trap(unsigned int vec, unsigned int dpl, unsigned long entry)
{
    trap_info_t t[2] = {
        { .vector = vec, .flags = dpl, .cs = FLAT_KERNEL_CS,
          .address = entry },
        { 0 },
    };

    return hypercall_set_trap_table(t);
}

#define INT80 TRY("int $0x80", "i" (0))

/* Delivered through the library's #BP stub, it reports vector 3. */
static void test_swint(void)
{
    unsigned long bp = exception_entry[X86_EXC_BP];

    check_fault("int $0x80, no entry", INT80, 13, IDT_ERR(0x80));
    check_rc(set_trap(0x80, 3, bp), 0);
    check_fault("int $0x80, DPL 3", INT80, X86_EXC_BP, 0);
    check_rc(set_trap(0x80, 1, bp), 0);
    check_fault("int $0x80, DPL 1", INT80, X86_EXC_BP, 0);
    /* Xen's int $0x80 fast path (entry_int80) never looks at the DPL. */
    check_rc(set_trap(0x80, 0, bp), 0);
    check_fault("int $0x80, DPL 0", INT80, X86_EXC_BP, 0);
    check_rc(set_trap(0x81, 0, bp), 0);
    check_fault("int $0x81, DPL 0", TRY("int $0x81", "i" (0)), 13,
                IDT_ERR(0x81));
    /* A prefix changes the length, not the vector. */
#ifdef __x86_64__
    check_rc(set_trap(0x82, 3, bp), 0);
    check_fault("rex.w int $0x82", TRY(".byte 0x48; int $0x82", "i" (0)),
                X86_EXC_BP, 0);
#else
    /* (int $0x82 is a 32-bit guest's hypercall: 0x83 here.) */
    check_rc(set_trap(0x83, 3, bp), 0);
    check_fault("ds int $0x83", TRY(".byte 0x3e; int $0x83", "i" (0)),
                X86_EXC_BP, 0);
#endif

    check_rc(hypercall_set_trap_table(NULL), 0);
    check_rc(trap_init(), 0);
}

#ifndef __x86_64__
#define RING2_CS    ((1 << 3) | 2)
#define RING2_SS    ((2 << 3) | 2)

static exinfo_t try_rdmsr(uint32_t msr)
{
    exinfo_t ex = 0;
    uint32_t hi;

    asm volatile ( "1: rdmsr; mov $1, %%eax; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), "=d" (hi) : "c" (msr) : "memory" );
    return ex;
}

/*
 * In ring 2: what a CR0 read, a CR3 write, rdmsr and clts raise (each
 * leaves 1 if it ran).  Which one went wrong, or 0.
 */
static unsigned long ring2_ops(unsigned long cr3)
{
    exinfo_t ex[4] = {
        TRY("mov %%cr0, %%eax; mov $1, %%eax", "i" (0)),
        TRY("mov %1, %%cr3; mov $1, %%eax", "r" (cr3)),
        try_rdmsr(0xc0000080),
        TRY("clts; mov $1, %%eax", "i" (0)),
    };
    unsigned int i;

    for ( i = 0; i < 4; i++ )
        if ( ex[i] != EXINFO(X86_EXC_GP, 0) )
            return i + 1;
    return 0;
}

static void test_ring2(void)
{
    static const uint64_t code = 0x00cfda000000ffffULL;   /* DPL 2 */
    static const uint64_t data = 0x00cfd2000000ffffULL;
    unsigned long gdt = alloc_frame();

    frame_set_pte(gdt, 1, code);
    frame_set_pte(gdt, 2, data);
    check_rc(HYPERCALL(__HYPERVISOR_set_gdt, &gdt, 3, 0, 0, 0), 0);
    check_rc(user_init(), 0);
    check_rc(exec_user_sel(ring2_ops, READ_CR(3), RING2_CS, RING2_SS), 0);
    /* Back in ring 1, the kernel's: emulated again. */
    check_rc(READ_CR(0) & X86_CR0_PG, X86_CR0_PG);
    check_rc(trap_init(), 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_gdt, NULL, 0, 0, 0, 0), 0);
}
#endif

void test_main(void)
{
    test_cr_reads();
    test_ts();
    test_cr3_write();
    test_debugregs();
    test_refused();
    test_swint();
#ifndef __x86_64__
    test_ring2();
#endif

    test_success();
}
