/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a vCPU brought up by VCPUOP_initialise starts with, besides its
 * registers: the FPU image (VGCF_i387_valid's, else Xen's default FCW
 * 0x37f and MXCSR 0x1f80 with zeroed registers; one FXRSTOR would refuse
 * is cleared to zeros, as Xen's fpu_fxrstor() clears it) and CR4
 * (ctrlreg[4]: the bits a PV guest controls and its CPUID offers, TSD and
 * OSXSAVE, the rest ignored).  Three vCPUs, one per case, each reading
 * its FCW, MXCSR, XMM0 and CR4 and going down.
 */
#include "guest.h"
#include "event.h"
#include "vcpu.h"
#include <xen/sched.h>

const char test_title[] = "VCPUOP_initialise: FPU image and CR4";

#define NR          4
#define X86_CR4_TSD         (1UL << 2)
#define X86_CR4_OSXSAVE     (1UL << 18)

static struct vcpu_guest_context ctx;
static uint8_t stacks[NR][8192] __attribute__((aligned(16)));
static volatile struct {
    unsigned int done;
    uint16_t fcw;
    uint32_t mxcsr;
    uint64_t xmm0;
    unsigned long cr4;
} seen[NR];

static void read_state(unsigned int n)
{
    uint16_t fcw;
    uint32_t mxcsr;
    uint64_t xmm0;
    unsigned long cr4;

    asm volatile ( "fnstcw %0" : "=m" (fcw) );
    asm volatile ( "stmxcsr %0" : "=m" (mxcsr) );
    asm volatile ( "movq %%xmm0, %0" : "=m" (xmm0) );
    asm volatile ( "mov %%cr4, %0" : "=r" (cr4) );     /* emulated */
    seen[n].fcw = fcw;
    seen[n].mxcsr = mxcsr;
    seen[n].xmm0 = xmm0;
    seen[n].cr4 = cr4;
}

static void __attribute__((used, noreturn)) vcpu_main(unsigned long n)
{
    read_state(n);
    seen[n].done = 1;
    vcpu_op(VCPUOP_down, n, NULL);
    for ( ;; )
        ;
}

static void put16(unsigned int off, uint16_t v)
{
    memcpy(&ctx.fpu_ctxt.x[off], &v, sizeof(v));
}

static void put32(unsigned int off, uint32_t v)
{
    memcpy(&ctx.fpu_ctxt.x[off], &v, sizeof(v));
}

static void put64(unsigned int off, uint64_t v)
{
    memcpy(&ctx.fpu_ctxt.x[off], &v, sizeof(v));
}

static void start(unsigned int n)
{
    uint64_t end;

    check_rc(vcpu_op(VCPUOP_initialise, n, &ctx), 0);
    check_rc(vcpu_op(VCPUOP_up, n, NULL), 0);
    end = system_time() + 10000000000ULL;
    while ( !seen[n].done && system_time() < end )
        ;
    if ( !seen[n].done )
        test_fail("vCPU %u never reported", n);
}

static void expect(unsigned int n, uint16_t fcw, uint32_t mxcsr,
                   uint64_t xmm0, unsigned long cr4)
{
    if ( seen[n].fcw != fcw || seen[n].mxcsr != mxcsr ||
         seen[n].xmm0 != xmm0 || seen[n].cr4 != cr4 )
        test_fail("vCPU %u: FCW %#x MXCSR %#x XMM0 %#lx CR4 %#lx, "
                  "wanted %#x %#x %#lx %#lx", n, seen[n].fcw, seen[n].mxcsr,
                  (unsigned long)seen[n].xmm0, seen[n].cr4, fcw, mxcsr,
                  (unsigned long)xmm0, cr4);
}

void test_main(void)
{
    unsigned long cr4, offered = 0;
    uint32_t a, b, c, d;
    unsigned int n;

    if ( vcpu_op(VCPUOP_is_up, NR - 1, NULL) == -XEN_ENOENT )
        return test_skip("fewer than %u vCPUs", NR);

    /* vCPU 0's CR4 (no guest bits set) and what CPUID lets a guest set. */
    asm volatile ( "mov %%cr4, %0" : "=r" (cr4) );
    asm volatile ( "ud2; .ascii \"xen\"; cpuid"
                   : "=a" (a), "=b" (b), "=c" (c), "=d" (d) : "a" (1), "c" (0) );
    if ( d & (1u << 4) )
        offered |= X86_CR4_TSD;
    if ( c & (1u << 26) )
        offered |= X86_CR4_OSXSAVE;

    /* 1: no FPU image given, so Xen's default; every CR4 bit asked for. */
    n = 1;
    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, n, stacks[n] + 8192, true);
    memset(&ctx.fpu_ctxt, 0xa5, sizeof(ctx.fpu_ctxt));      /* not valid */
    ctx.ctrlreg[4] = ~0UL;
    start(n);
    expect(n, 0x037f, 0x1f80, 0, cr4 | offered);

    /* 2: its own image (and junk in the reserved tail); no CR4 bits. */
    n = 2;
    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, n, stacks[n] + 8192, true);
    ctx.flags |= VGCF_i387_valid;
    put16(0, 0x027f);
    put32(24, 0x1fa0);
    put64(160, 0x1122334455667788ULL);
    memset(&ctx.fpu_ctxt.x[464], 0x5a, 48);
    start(n);
    expect(n, 0x027f, 0x1fa0, 0x1122334455667788ULL, cr4);

    /* 3: an MXCSR FXRSTOR would refuse: the whole image cleared. */
    n = 3;
    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, n, stacks[n] + 8192, true);
    ctx.flags |= VGCF_i387_valid;
    put16(0, 0x027f);
    put32(24, 0x80001f80);
    put64(160, 0x1122334455667788ULL);
    ctx.ctrlreg[4] = X86_CR4_TSD;
    start(n);
    expect(n, 0, 0, 0, cr4 | (offered & X86_CR4_TSD));

    /* vCPU 0's own state is untouched by the others'. */
    read_state(0);
    expect(0, 0x037f, 0x1f80, seen[0].xmm0, cr4);
    printf("vcpu-fpu: %u vCPUs started with the FPU and CR4 they were given\n",
           NR - 1);
    test_success();
}
