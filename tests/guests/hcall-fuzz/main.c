/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fuzz guest for every hypercall: random numbers, sub-ops and
 * arguments from a fixed seed, with full registers (64-bit ones:
 * commands and counts carry junk above bit 31), pointers to scratch
 * memory full of random bytes, to memory the guest can't give (unmapped,
 * non-canonical, the hypervisor's), and frame numbers the shim may take
 * into use (vcpu_info, runstate, FIFO control blocks) pointing only at a
 * zone kept for them.
 *
 * About half the calls are aimed at state the test owns (owned.c,
 * aimed.c): the PV MMU's on a pool of frames, some of them pinned page
 * tables, and on windows it remaps; grant maps, unmaps, copies,
 * transfers and swaps on its own grant table and the handles of its
 * maps; frames given back (decrease_reservation) and taken again
 * (populate_physmap, increase_reservation); and multicalls of all that,
 * with the other calls' junk mixed in.
 *
 * What it leaves out ends or derails the guest by design, not by a bug:
 * shutdowns and shutdown codes, watchdogs, iret, blocking without a
 * timeout, callback and trap-table changes, descriptor writes, changes
 * to what maps this kernel, NMIs, taking its own vCPU down.  Events stay
 * masked, so no upcall is taken.
 *
 * Guest command line: seed=N iterations=N verbose (each call, and each
 * aimed op with its grant entry, before it is made; then its result).
 * The expect file runs it with the shim's mm-audit, which checks the
 * frame table after every MMU, grant, memory, vCPU and event call:
 * reaching "hcall-fuzz: done" with the shim alive is the test; each
 * result must also be one Xen could give (an errno, a non-negative
 * value; for aimed calls a GNTST_* status, a count within the batch).
 * It runs with 64 MiB (the audit walks the whole frame table each time)
 * and 15000 calls: 25-30 s for each width under TCG here, under a
 * minute with other work beside it; each pass of make check with a seed
 * of its own (the pass's number: seed 1 in pv64, 2 in pv32, ...).
 *
 * What it found: with pv/grant/grant-copy.c as it was before commit
 * 3c56265 (Xen's XSA-500), that run ends at call 337 on 64-bit and at
 * call 275 on 32-bit, both a GNTTABOP_copy into a grant mapped read-only
 * whose entry had been made to name another frame (the pattern
 * aim_copy() makes now and then): mm-audit panicked after it, the frame
 * the entry names holding a reference too many for each such copy, the
 * frame the grant is pinned to one too few.
 */
#include "guest.h"
#include "fuzz.h"
#include "grant.h"
#include "mm.h"
#include "user.h"
#include <xen/event_channel.h>
#include <xen/vcpu.h>
#include <xen/physdev.h>
#include <xen/memory.h>
#include <xen/callback.h>

const char test_title[] = "hypercall fuzz: random calls, hostile arguments";

#define NR_ZONE     8

static uint8_t scratch[2][PAGE_SIZE] __page_aligned;
static uint8_t zone[NR_ZONE][PAGE_SIZE] __page_aligned;
static multicall_entry_t batch[8];
static bool verbose;
static unsigned long calls, errors;

#ifdef __x86_64__
/* A 32-bit value as a register holds it: sometimes junk above bit 31. */
static unsigned long wide(unsigned long v)
{
    return rnd_below(4) ? v : v | (rnd() << 32);
}

#define NO_SUCH_OP  (1UL << 40)
#else
/* A 32-bit guest's registers are the values' width. */
static unsigned long wide(unsigned long v)
{
    return v;
}

#define NO_SUCH_OP  (1UL << 30)
#endif

/* A guest pointer: scratch full of random bytes, or one that is bad. */
static unsigned long any_ptr(void)
{
    uint8_t *s = scratch[rnd_below(2)];
    unsigned int i;

    switch ( rnd_below(10) )
    {
    case 0:
        return (unsigned long)BAD_UNMAPPED;
    case 1:
        return (unsigned long)BAD_NONCANONICAL;
    case 2:
        /*
         * Within 8 MiB of it, never past the top of the address space: a
         * 32-bit guest's BAD_XEN is 2 MiB below 4 GiB, and the sum came
         * round to this kernel's image (seed=2, 30000 calls: xen_version
         * wrote its compile info over our code).
         */
        return (unsigned long)BAD_XEN +
               (rnd_below(1 << 20) * 8) % (0UL - (unsigned long)BAD_XEN);
    case 3:
        return 0;
    case 4:                             /* straddles the scratch's end */
        return (unsigned long)scratch[1] + PAGE_SIZE - 1 - rnd_below(16);
    default:
        for ( i = 0; i < 64; i++ )
            ((uint64_t *)s)[i] = rnd_below(3) ? rnd() : rnd_below(8);
        return (unsigned long)s + rnd_below(64) * 8;
    }
}

/*
 * A frame number the shim may keep and write: a page of the zone, or
 * junk.  vcpu_info and time areas (@fifo false) get the zone's first
 * half, FIFO control blocks and event arrays its second, so the shim's
 * writes to one never clear the other's upcall mask.
 */
static unsigned long any_gfn(bool fifo)
{
    switch ( rnd_below(4) )
    {
    case 0:
        return rnd();
    case 1:
        /*
         * Frames the shim must refuse: a page table, or beyond RAM.  (Any
         * other guest frame would be taken: vcpu_info or a FIFO control
         * block moved into this kernel's own code or data corrupts it,
         * on Xen too.)
         */
        return rnd_below(2) ? pt_base_mfn()
                            : maximum_ram_page() + 1 + rnd_below(16);
    default:
        return virt_to_mfn(zone[rnd_below(NR_ZONE / 2) +
                                (fifo ? NR_ZONE / 2 : 0)]);
    }
}

static unsigned long any_value(void)
{
    unsigned long v;

    switch ( rnd_below(4) )
    {
    case 0:
        /*
         * Anything but an address in this kernel's start-of-day mapping:
         * a 32-bit guest's random values land there now and then, and a
         * call that writes through its argument (physdev_op's
         * alloc_irq_vector) overwrote this kernel's code.
         */
        v = rnd();
        return v < initial_mapping_end() ? ~v : v;
    case 1:
        return rnd_below(4096);
    case 2:
        return -(long)rnd_below(64);
    default:
        return rnd_below(16);
    }
}

/*
 * The frames of this kernel's start-of-day mapping (its code, data,
 * stacks, page tables) lie between these two.
 */
static unsigned long kernel_mfn_lo = ~0UL, kernel_mfn_hi;

/*
 * any_value(), as a field that may be a frame number: never one of this
 * kernel's, which the shim would take as vcpu_info or a FIFO control
 * block or event array and write (any_value()'s small values are frame
 * numbers of ours on both widths).
 */
static unsigned long any_value_not_ours(void)
{
    unsigned long v = any_value();

    return v >= kernel_mfn_lo && v <= kernel_mfn_hi ? v + maximum_ram_page()
                                                    : v;
}

static void find_kernel_frames(void)
{
    unsigned long pfn, mfn;

    for ( pfn = 0; pfn < initial_mapping_end() >> PAGE_SHIFT; pfn++ )
    {
        mfn = pfn_to_mfn(pfn);
        kernel_mfn_lo = mfn < kernel_mfn_lo ? mfn : kernel_mfn_lo;
        kernel_mfn_hi = mfn > kernel_mfn_hi ? mfn : kernel_mfn_hi;
    }
}

/* Fill scratch[0] as the argument of a call that takes frame numbers. */
static unsigned long frames_arg(bool fifo)
{
    uint64_t *s = (uint64_t *)scratch[0];
    unsigned int i;

    for ( i = 0; i < 8; i++ )
        s[i] = rnd_below(2) ? any_gfn(fifo) : any_value_not_ours();
    return (unsigned long)s;
}

/*
 * Fill scratch[0] as the argument of a call that registers an area by
 * its virtual address (runstate, time): a place in the zone's first
 * half, or one the shim must refuse or can never reach.  Never a random
 * value: one landing on this kernel's own code or data would have the
 * shim write there at every update, as Xen would, and the test corrupt
 * itself (it did, now and then, on pv32, whose addresses are 32 bits).
 */
static unsigned long area_arg(void)
{
    uint64_t *s = (uint64_t *)scratch[0];

    switch ( rnd_below(6) )
    {
    case 0:
        s[0] = (unsigned long)BAD_UNMAPPED;
        break;
    case 1:
        s[0] = (unsigned long)BAD_NONCANONICAL;
        break;
    case 2:
        s[0] = rnd_below(2) ? (unsigned long)BAD_XEN : 0;
        break;
    default:
        s[0] = (unsigned long)zone[rnd_below(NR_ZONE / 2)] +
               rnd_below((PAGE_SIZE - 64) / 8) * 8;
        break;
    }
    return (unsigned long)s;
}

/* The hypercall by hand: @nr need not be one of the page's stubs. */
static unsigned long issue(unsigned long nr, unsigned long a1,
                           unsigned long a2, unsigned long a3,
                           unsigned long a4, unsigned long a5)
{
#ifdef __x86_64__
    register unsigned long r10 asm ( "r10" ) = a4;
    register unsigned long r8 asm ( "r8" ) = a5;
    unsigned long rax = nr;

    asm volatile ( "syscall"
                   : "+a" (rax), "+D" (a1), "+S" (a2), "+d" (a3),
                     "+r" (r10), "+r" (r8)
                   : : "rcx", "r11", "memory" );
    return rax;
#else
    unsigned long eax = nr;

    asm volatile ( "int $0x82"
                   : "+a" (eax), "+b" (a1), "+c" (a2), "+d" (a3),
                     "+S" (a4), "+D" (a5)
                   : : "memory" );
    return eax;
#endif
}

/*
 * A batch read from scratch is junk: its small op numbers would be calls
 * this test leaves out (set_callbacks 4, sched_op_compat 6 with shutdown,
 * ...), so each op there gets NO_SUCH_OP set (no such hypercall), and the
 * batch ends before an entry that would run past the scratch pages.
 */
static void junk_batch(unsigned long a[5])
{
    unsigned long start = (unsigned long)scratch, end = start + sizeof(scratch);
    multicall_entry_t *e = (multicall_entry_t *)a[0];
    unsigned long i;

    if ( a[0] < start || a[0] >= end )
        return;
    for ( i = 0; i < a[1]; i++, e++ )
    {
        if ( (unsigned long)(e + 1) > end )
        {
            a[1] = i;
            break;
        }
        e->op |= NO_SUCH_OP;
    }
}

#include "owned.c"
#include "aimed.c"

/* One random call, or false if the pick is one this test leaves out. */
static bool one_call(unsigned long *nr, unsigned long a[5])
{
    static const unsigned int evtchn_ops[] = {
        EVTCHNOP_bind_interdomain, EVTCHNOP_bind_virq, EVTCHNOP_bind_pirq,
        EVTCHNOP_close, EVTCHNOP_send, EVTCHNOP_status,
        EVTCHNOP_alloc_unbound, EVTCHNOP_bind_ipi, EVTCHNOP_bind_vcpu,
        EVTCHNOP_unmask, EVTCHNOP_reset, EVTCHNOP_init_control,
        EVTCHNOP_expand_array, EVTCHNOP_set_priority, 14, 1000,
    };
    static const unsigned int vcpu_ops[] = {
        VCPUOP_is_up, VCPUOP_get_runstate_info,
        VCPUOP_register_runstate_memory_area, VCPUOP_set_periodic_timer,
        VCPUOP_stop_periodic_timer, VCPUOP_set_singleshot_timer,
        VCPUOP_stop_singleshot_timer, VCPUOP_register_vcpu_info,
        VCPUOP_send_nmi, VCPUOP_get_physid,
        VCPUOP_register_vcpu_time_memory_area, 15, 99,
    };
    static const unsigned int mem_ops[] = {
        XENMEM_maximum_ram_page, XENMEM_current_reservation,
        XENMEM_maximum_reservation, XENMEM_machphys_mfn_list,
        XENMEM_maximum_gpfn, XENMEM_machphys_mapping, XENMEM_memory_map,
        99,
    };
    unsigned int i, n;

    for ( i = 0; i < 5; i++ )
        a[i] = rnd_below(2) ? any_ptr() : any_value();

    switch ( rnd_below(26) )
    {
    case 0:
        *nr = __HYPERVISOR_console_io;
        a[0] = wide(rnd_below(4));
        a[1] = wide(rnd_below(48));     /* bounded: each byte is printed */
        return true;
    case 1:
        *nr = __HYPERVISOR_xen_version;
        a[0] = wide(rnd_below(16));
        return true;
    case 2:
        *nr = __HYPERVISOR_sched_op;
        a[0] = wide(PICK(((const unsigned int[]){
            SCHEDOP_yield, SCHEDOP_poll, SCHEDOP_remote_shutdown,
            SCHEDOP_pin_override, 99 })));
        if ( (unsigned int)a[0] == SCHEDOP_poll )
        {
            static sched_poll_t poll;

            /* A poll must end: its timeout is long past, never "none". */
            poll.ports.p = (void *)any_ptr();
            poll.nr_ports = rnd_below(4) ? rnd_below(4) : rnd();
            poll.timeout = 1;
            a[1] = (unsigned long)&poll;
        }
        return true;
    case 3: case 4:
        *nr = __HYPERVISOR_event_channel_op;
        a[0] = wide(PICK(evtchn_ops));
        if ( a[0] == EVTCHNOP_init_control ||
             a[0] == EVTCHNOP_expand_array )
            a[1] = frames_arg(true);
        return true;
    case 5:
        *nr = __HYPERVISOR_event_channel_op_compat;
        a[0] = frames_arg(true);
        ((uint32_t *)a[0])[0] = PICK(evtchn_ops);
        return true;
    case 6: case 7:
        *nr = __HYPERVISOR_vcpu_op;
        a[0] = wide(PICK(vcpu_ops));
        a[1] = wide(rnd_below(8) ? 0 : rnd_below(3));
        if ( a[0] == VCPUOP_register_vcpu_info )
            a[2] = frames_arg(false);
        else if ( a[0] == VCPUOP_register_runstate_memory_area ||
                  a[0] == VCPUOP_register_vcpu_time_memory_area )
            a[2] = area_arg();
        return true;
    case 8:
        *nr = __HYPERVISOR_set_timer_op;
        return true;
    case 9:
        *nr = __HYPERVISOR_physdev_op;
        a[0] = wide(rnd_below(32));
        return true;
    case 10:
        *nr = __HYPERVISOR_memory_op;
        a[0] = PICK(mem_ops);
        return true;
    case 11:
        *nr = __HYPERVISOR_get_debugreg;
        a[0] = wide(rnd_below(10));
        return true;
    case 12:
        /* Not implemented, or past the end of the table. */
        *nr = rnd_below(2) ? 37 + rnd_below(27) : rnd();
        return *nr != __HYPERVISOR_iret;
    case 13:
        /*
         * A small batch of the above, with junk entries mixed in; each
         * entry its own slot for aimed calls' arguments.  Not nested.
         */
        if ( cur_slot != DIRECT )
            return false;
        n = rnd_below(ARRAY_SIZE(batch) + 1);
        for ( i = 0; i < n; i++ )
        {
            unsigned long snr, sa[5];

            cur_slot = i;
            if ( !one_call(&snr, sa) || snr == __HYPERVISOR_multicall )
            {
                snr = __HYPERVISOR_xen_version, sa[0] = XENVER_version;
                aimed[i].what = AIM_NONE;
            }
            batch[i].op = snr;
            memcpy(batch[i].args, sa, sizeof(sa));
            batch[i].result = RESULT_NOT_RUN;
        }
        cur_slot = DIRECT;
        *nr = __HYPERVISOR_multicall;
        a[0] = rnd_below(8) ? (unsigned long)batch : any_ptr();
        a[1] = n;
        junk_batch(a);
        return true;
    case 14:
        /* Frames given back, then grants mapped, in one multicall. */
        if ( cur_slot == DIRECT && aim_ok && !rnd_below(3) )
        {
            owned_pattern(nr, a);
            return true;
        }
        return owned_call(nr, a);
    default:
        /* A call aimed at what this test owns: MMU, grants, memory. */
        return owned_call(nr, a);
    }
}

/*
 * From guest user mode, `syscall` is the kernel's system call, never a
 * hypercall, whatever %rax holds: it reaches the syscall callback with
 * the user's %rax, and comes back with what the callback returns.  The
 * arguments sometimes ask for a poweroff, which would end this test.
 */
static unsigned long user_args[6];
static const struct sched_shutdown user_poweroff = {
    .reason = SHUTDOWN_poweroff,
};

#ifdef __x86_64__
static unsigned long user_syscall(unsigned long nr)
{
    register unsigned long r10 asm ( "r10" ) = user_args[3];
    register unsigned long r8 asm ( "r8" ) = user_args[4];
    unsigned long rax = nr, rdi = user_args[0], rsi = user_args[1];
    unsigned long rdx = user_args[2];

    asm volatile ( "syscall"
                   : "+a" (rax), "+D" (rdi), "+S" (rsi), "+d" (rdx),
                     "+r" (r10), "+r" (r8)
                   : : "rcx", "r11", "memory" );
    return rax;
}

/* User mode, and its system call with events masked in the callback. */
static long user_setup(void)
{
    return user_init() ?:
           user_register_callback(CALLBACKTYPE_syscall,
                                  (unsigned long)user_syscall_entry,
                                  CALLBACKF_mask_events);
}
#else
/* A 32-bit guest's system call: int $0x80, the hypercall's registers. */
static unsigned long user_syscall(unsigned long nr)
{
    unsigned long eax = nr, ebx = user_args[0], ecx = user_args[1];
    unsigned long edx = user_args[2], esi = user_args[3];
    unsigned long edi = user_args[4];

    asm volatile ( "int $0x80"
                   : "+a" (eax), "+b" (ebx), "+c" (ecx), "+d" (edx),
                     "+S" (esi), "+D" (edi)
                   : : "memory" );
    return eax;
}

/* User mode, and int $0x80 (DPL 3) masking events, to the same stub. */
static long user_setup(void)
{
    trap_info_t t[2] = {
        { .vector = 0x80, .flags = 3 | 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_syscall_entry },
    };

    return user_init() ?: hypercall_set_trap_table(t);
}
#endif

static void user_call(unsigned long i)
{
    unsigned long nr, got;

    if ( rnd_below(4) )
    {
        nr = __HYPERVISOR_sched_op;
        user_args[0] = SCHEDOP_shutdown;
        user_args[1] = (unsigned long)&user_poweroff;
    }
    else
    {
        aim_ok = false;
        if ( !one_call(&nr, user_args) )
            nr = rnd();
    }
    owned_user_prepare();
    /* A multicall list at NULL reads this kernel's page 0: zeros, that is
     * set_trap_table(NULL), which drops the way back from user mode. */
    if ( user_setup() )
        test_fail("call %lu: user mode setup failed", i);
    user_syscall_result = rnd();
    user_syscall_count = 0;
    /* Events stay masked: this kernel has no event callback. */
    got = exec_user_flags(user_syscall, nr, 0x2);
    if ( got != user_syscall_result || user_syscall_count != 1 ||
         user_syscall_rax != nr )
        test_fail("call %lu: user syscall %#lx: returned %#lx (callback "
                  "%u times, rax %#lx)", i, nr, got, user_syscall_count,
                  user_syscall_rax);
}

void test_main(void)
{
    unsigned long iterations = cmdline_ulong("iterations", 2000);
    unsigned long i, nr, a[5];
    long rc;

    rnd_seed(cmdline_ulong("seed", 1));
    verbose = strstr((const char *)start_info->cmd_line, "verbose");
    printf("hcall-fuzz: seed %lu, %lu calls\n", cmdline_ulong("seed", 1),
           iterations);

    if ( user_setup() )
        return test_error("user mode setup failed");
    find_kernel_frames();
    owned_setup();

    for ( i = 0; i < iterations; i++ )
    {
        owned_begin(i);
        owned_tidy();
        if ( !rnd_below(64) )
        {
            user_call(i);
            continue;
        }
        if ( !rnd_below(256) )
        {
            version_switch();
            continue;
        }
        if ( !one_call(&nr, a) )
            continue;
        if ( verbose )
        {
            printf("call %lu: %lu(%#lx, %#lx, %#lx, %#lx, %#lx)\n", i, nr,
                   a[0], a[1], a[2], a[3], a[4]);
            owned_describe();
        }
        rc = issue(nr, a[0], a[1], a[2], a[3], a[4]);
        calls++;
        if ( rc < 0 )
            errors++;
        /* Anything negative must be an errno (get_debugreg: a value). */
        if ( rc < -4095 && nr != __HYPERVISOR_get_debugreg )
            test_fail("call %lu: hypercall %lu returned %ld", i, nr, rc);
        owned_after(nr, a, rc);
    }
    owned_finish();
    printf("\nhcall-fuzz: done: %lu calls, %lu refused\n", calls, errors);
    test_success();
}
