/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The privileged instructions a PV kernel may use from ring 3, emulated
 * from their #GP as Xen's pv/emul/emul-priv-op.c does (its priv_op_ops and
 * validate(), and do_general_protection()'s `int $n` path).  Only the
 * forms emulated are decoded: any other bytes keep the fault they raised.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "arch/x86/cr.h"
#include "arch/x86/exception.h"
#include "arch/x86/segment.h"
#include "arch/x86/time.h"
#include "pv/emul/emul-cr.h"
#include "pv/emul/emulate.h"
#include "pv/guest-access.h"
#include "pv/mm/mm.h"
#include "pv/traps.h"
#include "shim/console.h"

#define MAX_INSN_LEN    15

/* The bytes at the guest's rip, and how far decoding has got. */
struct insn {
    uint8_t buf[MAX_INSN_LEN];
    unsigned int avail;                 /* readable */
    unsigned int len;                   /* decoded */
    uint8_t rex;                        /* 0: none */
    bool opsize, lock;
    bool mode64;                        /* 64-bit code: 0x40-0x4f are REX */
};

/* Up to 15 bytes: at once, or one by one at the end of what is mapped. */
static void insn_fetch(struct insn *in, unsigned long rip, bool mode64)
{
    memset(in, 0, sizeof(*in));
    in->mode64 = mode64;
    if ( !copy_from_guest(in->buf, rip, MAX_INSN_LEN) )
    {
        in->avail = MAX_INSN_LEN;
        return;
    }
    while ( in->avail < MAX_INSN_LEN &&
            !copy_from_guest(&in->buf[in->avail], rip + in->avail, 1) )
        in->avail++;
}

static int insn_byte(struct insn *in)
{
    return in->len < in->avail ? in->buf[in->len++] : -1;
}

/* The opcode byte after any prefixes; REX counts only right before it. */
static int insn_opcode(struct insn *in)
{
    int b;

    while ( (b = insn_byte(in)) >= 0 )
    {
        switch ( b )
        {
        case 0x40 ... 0x4f:
            if ( !in->mode64 )
                return b;               /* inc/dec in 32-bit code */
            in->rex = b;
            continue;
        case 0x66:
            in->opsize = true;
            break;
        case 0xf0:
            in->lock = true;
            break;
        case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
        case 0x67: case 0xf2: case 0xf3:
            break;
        default:
            return b;
        }
        in->rex = 0;
    }
    return -1;
}

/* ModRM's reg and r/m fields with REX.R and REX.B; false if truncated. */
static bool insn_modrm(struct insn *in, unsigned int *reg, unsigned int *rm)
{
    int m = insn_byte(in);

    if ( m < 0 )
        return false;
    *reg = ((m >> 3) & 7) | ((in->rex & 4) << 1);
    *rm = (m & 7) | ((in->rex & 1) << 3);
    return true;
}

static uint64_t *gpr(struct cpu_regs *r, unsigned int n)
{
    static const uint8_t off[16] = {
        offsetof(struct cpu_regs, rax), offsetof(struct cpu_regs, rcx),
        offsetof(struct cpu_regs, rdx), offsetof(struct cpu_regs, rbx),
        offsetof(struct cpu_regs, rsp), offsetof(struct cpu_regs, rbp),
        offsetof(struct cpu_regs, rsi), offsetof(struct cpu_regs, rdi),
        offsetof(struct cpu_regs, r8), offsetof(struct cpu_regs, r9),
        offsetof(struct cpu_regs, r10), offsetof(struct cpu_regs, r11),
        offsetof(struct cpu_regs, r12), offsetof(struct cpu_regs, r13),
        offsetof(struct cpu_regs, r14), offsetof(struct cpu_regs, r15),
    };

    return (uint64_t *)((char *)r + off[n & 15]);
}

/* Is @sel a 64-bit code segment?  Asked of the descriptor the CPU used. */
static bool cs_is_64bit(unsigned long sel)
{
    return lar(sel) & _SEGMENT_L;
}

/* Past the decoded instruction. */
static bool emul_done(struct cpu_regs *regs, const struct insn *in)
{
    return pv_emul_instruction_done(regs, in->len);
}

/* Xen's gdprintk() for what it won't emulate: once each, here. */
static void refuse_once(bool *said, const char *what)
{
    if ( !*said )
        printk(XENLOG_WARNING "d1: %s: not emulated, #GP\n", what);
    *said = true;
}

static bool read_cr(unsigned int cr, uint64_t *val)
{
    const struct vcpu *v = current_vcpu();

    switch ( cr )
    {
    case 0:
        *val = pv_guest_cr0();
        return true;
    case 2:
        *val = pv_guest_cr2(v);
        return true;
    case 3:
        *val = pv_pfn_to_cr3(v->guest_table);   /* mfn: PV isn't translated */
        return true;
    case 4:
        *val = pv_guest_cr4();
        return true;
    default:
        return false;                   /* CR8, reserved: #GP as in Xen */
    }
}

static bool write_cr(unsigned int cr, uint64_t val)
{
    static bool said_cr0, said_cr3;

    switch ( cr )
    {
    case 0:
        /* The guest may flip TS, nothing else (Xen: warning, #GP). */
        if ( (val ^ read_cr0()) & ~X86_CR0_TS )
        {
            refuse_once(&said_cr0, "CR0 write changing more than TS");
            return false;
        }
        do_fpu_taskswitch(!!(val & X86_CR0_TS));
        return true;
    case 2:
        pv_set_guest_cr2(current_vcpu(), val);
        return true;
    case 3:
        /*
         * Xen's write_cr(3): the frame becomes CR3 as by NEW_BASEPTR
         * (validated as an L4); the low flag bits are ignored, and a
         * frame that won't be an L4 is #GP(0).  Nothing here preempts.
         */
        if ( new_guest_cr3(current_vcpu(), pv_cr3_to_pfn(val)) )
        {
            refuse_once(&said_cr3, "CR3 write of a frame not a valid L4");
            return false;
        }
        return true;
    case 4:
        pv_write_cr4(val);              /* Xen never faults a CR4 write */
        return true;
    default:
        return false;
    }
}

/* mov to and from CR0-4 and DR0-7; the mod bits are ignored (SDM MOV). */
static bool emulate_mov_crdr(struct cpu_regs *regs, struct insn *in, int op)
{
    unsigned int reg, rm;
    uint64_t *r, val;
    long rc;

    if ( !insn_modrm(in, &reg, &rm) )
        return false;
    r = gpr(regs, rm);
    /* 32-bit code moves the register's low half (the rest isn't its). */
    val = in->mode64 ? *r : (uint32_t)*r;

    switch ( op )
    {
    case 0x20:
        return read_cr(reg, r) && emul_done(regs, in);
    case 0x22:
        return write_cr(reg, val) && emul_done(regs, in);
    case 0x21:
        /* Xen's x86emul_read_dr(): no such register (DR8+) is #UD. */
        val = do_get_debugreg(reg);
        if ( reg >= 4 && val == (unsigned long)-XEN_ENODEV )
            break;
        *r = val;
        return emul_done(regs, in);
    default:
        /* Xen's x86emul_write_dr(): set_debugreg()'s errors as faults. */
        rc = do_set_debugreg(reg, val);
        if ( rc == -XEN_ENODEV )
            break;
        if ( rc )
            return false;
        return emul_done(regs, in);
    }
    pv_inject_exception(regs, X86_EXC_UD, 0);
    return true;
}

/* edx:eax (and ecx) as the instruction leaves them. */
static void set_edx_eax(struct cpu_regs *regs, uint64_t val)
{
    regs->rax = (uint32_t)val;
    regs->rdx = val >> 32;
}

/*
 * Group 7's register forms a PV kernel may use: xsetbv (#UD while its
 * CR4.OSXSAVE is clear, as Xen's x86_emulate checks first), and rdtscp
 * when its CR4.TSD made it fault; lgdt, lidt, invlpg...: #GP.
 */
static bool emulate_0f01(struct cpu_regs *regs, struct insn *in)
{
    uint32_t aux;

    switch ( insn_byte(in) )
    {
    case 0xd1:                          /* xsetbv */
        if ( !(current_vcpu()->cr4_guest & X86_CR4_OSXSAVE) )
        {
            pv_inject_exception(regs, X86_EXC_UD, 0);
            return true;
        }
        if ( !pv_xsetbv(regs->rcx, ((uint64_t)(uint32_t)regs->rdx << 32) |
                                   (uint32_t)regs->rax) )
            return false;
        return emul_done(regs, in);
    case 0xf9:                          /* rdtscp: only a CPU with it #GPs */
        set_edx_eax(regs, rdtscp(&aux));
        regs->rcx = aux;
        return emul_done(regs, in);
    default:
        return false;
    }
}

static bool emulate_0f(struct cpu_regs *regs, struct insn *in)
{
    struct vcpu *v = current_vcpu();
    int op = insn_byte(in);
    uint64_t val;

    /* Each needs CPL 0, which only the guest kernel stands for. */
    if ( !v->kernel_mode )
        return false;

    switch ( op )
    {
    case 0x01:
        return emulate_0f01(regs, in);
    case 0x06:                          /* clts */
        do_fpu_taskswitch(0);
        return emul_done(regs, in);
    case 0x09:                          /* wbinvd, wbnoinvd */
        /*
         * Ignored for a domain without cache control: Linux times loops
         * with it.
         */
        return emul_done(regs, in);
    case 0x20 ... 0x23:
        return emulate_mov_crdr(regs, in, op);
    case 0x30:                          /* wrmsr */
        if ( !pv_write_msr(regs->rcx, ((uint64_t)(uint32_t)regs->rdx << 32) |
                                      (uint32_t)regs->rax) )
            return false;
        return emul_done(regs, in);
    case 0x31:                          /* rdtsc, with the guest's TSD */
        set_edx_eax(regs, rdtsc());
        return emul_done(regs, in);
    case 0x32:                          /* rdmsr */
        if ( !pv_read_msr(regs->rcx, &val) )
            return false;
        set_edx_eax(regs, val);
        return emul_done(regs, in);
    default:
        /* ltr, lldt, invd...: #GP. */
        return false;
    }
}

/* in/out, with an immediate port or %dx; the string forms keep the #GP. */
static bool emulate_io(struct cpu_regs *regs, struct insn *in, int op)
{
    unsigned int size = !(op & 1) ? 1 : in->opsize ? 2 : 4;
    int port = (op & 8) ? (uint16_t)regs->rdx : insn_byte(in);
    uint64_t mask = (1ULL << (size * 8)) - 1;

    if ( port < 0 || !pv_io_ok(current_vcpu(), port, size) )
        return false;
    if ( op & 2 )
        pv_io_write(port, size, regs->rax);
    else if ( size == 4 )
        regs->rax = pv_io_read(port, size);  /* zero-extends */
    else
        regs->rax = (regs->rax & ~mask) | pv_io_read(port, size);
    return emul_done(regs, in);
}

/*
 * `int $n` through a gate the shim keeps at DPL 0: Xen delivers it to the
 * guest's trap table entry if its DPL allows, else the #GP the hardware
 * gives, error code (n << 3) | 2.  The vector comes from the instruction,
 * not the error code, which QEMU's TCG gets wrong (DESIGN.md).
 */
static bool emulate_swint(struct cpu_regs *regs, struct insn *in, int op)
{
    int vec = op == 0xcd ? insn_byte(in) : -1;

    if ( vec < 0 )
        return false;
    regs->rip += in->len;
    if ( pv_inject_swint(regs, vec) )
        return true;
    regs->rip -= in->len;
    pv_inject_exception(regs, X86_EXC_GP, (vec << 3) | X86_XEC_IDT);
    return true;
}

bool pv_emulate_privileged_op(struct cpu_regs *regs)
{
    bool mode64 = cs_is_64bit(regs->cs);
    struct insn in;
    int op;

    /*
     * An external event's #GP, or code we don't decode: as it was.  An
     * `int $n` decodes the same from 32-bit user code, which Linux's int
     * $0x80 needs; a 32-bit guest's kernel is 32-bit code, decoded as
     * such.  32-bit code only in a flat code segment (pv_code_seg_flat():
     * every PV guest's is), or the bytes read at %eip would not be the
     * ones the CPU ran at base + %eip.
     */
    if ( (regs->error_code & X86_XEC_EXT) ||
         (!mode64 && !dom.compat && !(regs->error_code & X86_XEC_IDT)) ||
         (!mode64 && !pv_code_seg_flat(regs->cs)) )
        return false;
    insn_fetch(&in, regs->rip, mode64);
    op = insn_opcode(&in);

    if ( regs->error_code & X86_XEC_IDT )
        return emulate_swint(regs, &in, op);
    /* Xen emulates only for error code 0; LOCK would have been #UD. */
    if ( regs->error_code || op < 0 || in.lock )
        return false;

    switch ( op )
    {
    case 0x0f:
        return emulate_0f(regs, &in);
    case 0xe4 ... 0xe7:
    case 0xec ... 0xef:
        return emulate_io(regs, &in, op);
    case 0xfa:                          /* cli */
    case 0xfb:                          /* sti */
        /*
         * With I/O privilege Xen skips them: the guest's event mask is
         * the interrupt flag that matters, and it owns it.
         */
        return pv_iopl_ok(current_vcpu()) && emul_done(regs, &in);
    default:
        return false;                   /* hlt, ins/outs, ...: #GP */
    }
}
