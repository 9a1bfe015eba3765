/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Code patched as Linux's text_poke_bp() patches it (a static key, an
 * alternative, a kprobe) while another vCPU runs it.  vCPU 0 rewrites a
 * 5-byte instruction through a writable alias of its page, between a
 * 5-byte nop and a `jmp` to the next instruction: an int3 on its first
 * byte, the last four bytes, the first byte, each step followed by a
 * "sync" (it waits until vCPU 1 has been through the code or its int3
 * again, as text_poke_sync()'s IPIs wait until every CPU has
 * serialised).  vCPU 1 runs the code in a loop; an int3 it takes there
 * while a patch is under way is emulated (poke_int3_handler()), one
 * taken after is retried at the int3's address because memory no longer
 * holds it (kprobe_int3_handler()'s "the int3 was removed").
 *
 * On hardware that retry always finds the new instruction.  Under QEMU's
 * multi-threaded TCG a vCPU that translates the code while another
 * writes it can keep a translation of the int3 that no write
 * invalidates any more: the retry runs the old int3 for ever (Linux on
 * 4 vCPUs locked up so, all CPUs at one jump label, after "random: crng
 * init done").  The shim, seeing a #BP whose int3 memory no longer
 * holds, rewrites the byte as it is (pv/traps.c), which makes QEMU drop
 * its stale translations: vCPU 1 must get through the code within a few
 * seconds of every patch, for every patch of 2 seconds of them with
 * vCPU 1 in kernel mode, then 2 seconds with it in user mode (a uprobe's
 * or a debugger's int3: the shim finds the byte through the user page
 * tables).
 */
#include "guest.h"
#include "mm.h"
#include "smp.h"
#include "user.h"

const char test_title[] = "int3 patching (text_poke_bp) under another vCPU";

#define PHASE_NS    2000000000ULL
#define STUCK_NS    5000000000ULL
#define SITE_LEN    5

/* The code vCPU 1 runs: a page of its own, so only it is translated there. */
asm ( ".pushsection .text.poke, \"ax\"\n\t"
      ".balign 4096\n"
      "poke_page:\n"
      "run_site:\n"
      "poke_site:\n\t"
      ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"   /* nopl 0(%rax,%rax) */
      "site_end:\n\t"
      "ret\n"
      "site_int3:\n\t"                          /* the int3's fix-up */
#ifdef __x86_64__
      "sub $8, %rsp\n\t"
      "call site_int3_handler\n\t"
      "add $8, %rsp\n\t"
#else
      "call site_int3_handler\n\t"
#endif
      "test %eax, %eax\n\t"
      "jnz site_end\n\t"
      "jmp poke_site\n\t"
      ".balign 4096\n\t"
      ".popsection\n\t"
      ".pushsection .ex_table, \"a\"\n\t"
      ".balign " ASM_PTR_ALIGN "\n\t"
      ASM_PTR " poke_site + 1, site_int3\n\t"
      ".popsection" );

extern const uint8_t poke_page[], poke_site[];
void run_site(void);

static const uint8_t nop5[SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const uint8_t jmp5[SITE_LEN] = { 0xe9, 0x00, 0x00, 0x00, 0x00 };

static uint8_t alias[PAGE_SIZE] __page_aligned;

static unsigned int patch_gen;          /* odd while a patch is under way */
static unsigned int phase, in_user, stopped;
static long user_rc;
static volatile unsigned int passes, traps, emulated, retried, in_a_row,
                             most_in_a_row;
static volatile uint8_t seen;        /* the byte at the last retry */
static const char *failed;

/*
 * vCPU 1's int3 at poke_site: true to take the instruction as done (a
 * patch is under way: both forms go on to site_end), false to run it
 * again (the patch is over: memory holds the new instruction).  An int3
 * in memory is a patch's: its generation has moved by the time the byte
 * is read (the patcher makes it odd before it writes the int3).
 */
int __attribute__((used)) site_int3_handler(void)
{
    unsigned int gen = LOAD(patch_gen);
    uint8_t now;

    traps++;
    cpu_relax();
    if ( gen & 1 )
    {
        emulated++;
        return 1;
    }
    now = *(const volatile uint8_t *)poke_site;
    if ( now == 0xcc && LOAD(patch_gen) == gen )
        STORE(failed, "an int3 in memory with no patch under way");
    seen = now;
    retried++;
    if ( ++in_a_row > most_in_a_row )
        most_in_a_row = in_a_row;
    return 0;
}

/* vCPU 1 runs the code until vCPU 0 moves on to the next phase. */
static unsigned long run_loop(unsigned long mine)
{
    while ( LOAD(phase) == mine )
    {
        run_site();
        in_a_row = 0;
        passes++;
        cpu_relax();            /* one TCG thread: vCPU 0's turn */
    }
    return 0;
}

static void __attribute__((used)) vcpu_main(unsigned int id)
{
    (void)id;
    /*
     * User mode first made ready (its own kernel stack for entries from
     * it; a 32-bit guest's pages made user-accessible, one
     * update_va_mapping each, slow under mm-audit), then the code run in
     * kernel mode, then in user mode.
     */
    if ( (user_rc = user_init()) )
    {
        STORE(failed, "user_init() on vCPU 1");
        return;
    }
    run_loop(0);
    STORE(in_user, 1);
    exec_user_flags(run_loop, 1, 0x2);  /* events stay masked */
    STORE(stopped, 1);
}

/* Wait until @counter moves by @by, or fail naming @what. */
static bool wait_moves(const volatile unsigned int *counter, unsigned int by,
                       uint64_t timeout_ns, const char *what)
{
    unsigned int from = *counter;
    uint64_t end = smp_time() + timeout_ns;

    while ( *counter - from < by )
    {
        if ( smp_time() > end )
        {
            STORE(failed, what);
            return false;
        }
        cpu_relax();
    }
    return true;
}

/* Through the alias, as text_poke() writes through its poking_mm. */
static void text_poke(unsigned int off, const uint8_t *bytes, unsigned int len)
{
    volatile uint8_t *p = alias + (poke_site - poke_page) + off;
    unsigned int i;

    for ( i = 0; i < len; i++ )
        p[i] = bytes[i];
    __sync_synchronize();
}

/* Spin for a pseudo-random while, so that the writes meet vCPU 1 anywhere. */
static void jitter(unsigned int *seed)
{
    unsigned int n;

    *seed = *seed * 1103515245 + 12345;
    for ( n = (*seed >> 16) & 1023; n; n-- )
        cpu_relax();
}

/* text_poke_sync(): vCPU 1 has been through the code or its int3 since. */
static bool sync_other(void)
{
    unsigned int from = passes + traps;
    uint64_t end = smp_time() + STUCK_NS;

    while ( passes + traps == from )
    {
        if ( smp_time() > end )
        {
            STORE(failed, "vCPU 1 stopped during a patch");
            return false;
        }
        cpu_relax();
    }
    return true;
}

static bool patch(const uint8_t *insn, unsigned int *seed)
{
    static const uint8_t int3 = 0xcc;

    ADD(patch_gen, 1);
    text_poke(0, &int3, 1);
    if ( !sync_other() )
        return false;
    jitter(seed);
    text_poke(1, insn + 1, SITE_LEN - 1);
    if ( !sync_other() )
        return false;
    jitter(seed);
    text_poke(0, insn, 1);
    if ( !sync_other() )
        return false;
    ADD(patch_gen, 1);
    /* The patch is over: vCPU 1 must get through the new instruction. */
    return wait_moves(&passes, 2, STUCK_NS, "vCPU 1 stuck at an int3 that "
                      "memory no longer holds");
}

void test_main(void)
{
    static const char *const modes[] = { "kernel", "user" };
    unsigned int rounds[2] = { 0, 0 }, seed = 1, ph;
    uint64_t end;
    long rc;

    if ( smp_nr_vcpus(2) < 2 )
        return test_skip("one vCPU");
    if ( (rc = map_shared_info()) )     /* smp_time()'s clocks */
        return test_error("map_shared_info: %ld", rc);
    rc = map_frame_at((unsigned long)alias, virt_to_mfn(poke_page), PTE_RW);
    if ( rc )
        return test_error("a writable alias of the code: %ld", rc);
    if ( (rc = smp_start_vcpu(1, vcpu_main)) )
        return test_fail("starting vCPU 1: %ld", rc);
    if ( !wait_moves(&passes, 1, SMP_WAIT_NS, "vCPU 1 never ran the code") )
        return test_fail("%s (%ld)", failed, user_rc);

    for ( ph = 0; ph < 2; ph++ )
    {
        if ( ph )
        {
            STORE(phase, ph);
            if ( !wait_moves(&in_user, 1, STUCK_NS, "vCPU 1 never reached "
                             "user mode") ||
                 !wait_moves(&passes, 1, STUCK_NS, "vCPU 1 never ran the "
                             "code in user mode") )
                return test_fail("%s", failed);
        }
        end = smp_time() + PHASE_NS;
        while ( smp_time() < end && !LOAD(failed) &&
                patch(rounds[ph] & 1 ? nop5 : jmp5, &seed) )
            rounds[ph]++;
        if ( LOAD(failed) )
            return test_fail("%s, in %s mode, after %u patches (%u int3s in "
                             "a row at %p, which holds %02x; %u emulated, %u "
                             "retried)", failed, modes[ph], rounds[ph],
                             most_in_a_row, poke_site, seen, emulated,
                             retried);
    }

    STORE(phase, 2);
    if ( !wait_moves(&stopped, 1, STUCK_NS, "vCPU 1 never left user mode") )
        return test_fail("%s", failed);
    check_rc(remap_initial((unsigned long)alias), 0);
    printf("text-poke-int3: %u patches under kernel mode, %u under user "
           "mode; vCPU 1 took %u int3s (%u emulated, %u retried, at most %u "
           "in a row)\n", rounds[0], rounds[1], traps, emulated, retried,
           most_in_a_row);
    test_success();
}
