/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XENMEM_exchange, as Xen's memory_exchange() answers a PV domU (Linux's
 * xen_create_contiguous_region(), for its swiotlb-xen): frames the guest
 * holds (patterned) for new ones, zeroed, in extents of another order
 * (512 frames for one machine-contiguous 2 MiB extent, and back; 8 for
 * one order-3 extent below 4 GiB), their M2P entries at the gpfns asked
 * for and their mfns written back, the old frames the guest's no more.
 * Then what Xen refuses, each leaving every frame the guest's as it was:
 * a frame mapped, pinned as a page table, shared_info, one not the
 * guest's, one past RAM (the chunk before it done, nr_exchanged saying
 * so); lists whose sizes differ, domains that differ, other domains,
 * orders past 9, nr_exchanged past the list, a start extent, faulting
 * pointers, an exact machine node, a frame named twice; and too few
 * address bits for any frame (-ENOMEM).  An out list that faults only
 * as the new frames' gpfns are read ends the exchange after that chunk,
 * -EFAULT, as in Xen.  mm-audit
 * checks the frame table after each call; memory-exchange-preempt runs
 * it all with a continuation after every chunk.
 */
#include "guest.h"
#include "mm.h"
#include <xen/memory.h>

#ifndef TEST_TITLE
#define TEST_TITLE "memory_op: XENMEM_exchange"
#endif
const char test_title[] = TEST_TITLE;

#define MEMOP_EXTENT_SHIFT  6
#define INVALID_M2P         (~0UL)
#define PATTERN             0xa5

static uint8_t win[PAGE_SIZE] __page_aligned;   /* mapped elsewhere at times */
#define W                   ((unsigned long)win)

static xen_pfn_t in[512], out[512];
static struct xen_memory_exchange x;

static long exchange(const xen_pfn_t *i, unsigned long ni, unsigned int io,
                     xen_pfn_t *o, unsigned long no, unsigned int oo,
                     unsigned int flags)
{
    memset(&x, 0, sizeof(x));
    set_xen_guest_handle(x.in.extent_start, (xen_pfn_t *)i);
    x.in.nr_extents = ni;
    x.in.extent_order = io;
    x.in.domid = DOMID_SELF;
    set_xen_guest_handle(x.out.extent_start, o);
    x.out.nr_extents = no;
    x.out.extent_order = oo;
    x.out.mem_flags = flags;
    x.out.domid = DOMID_SELF;
    return memory_op(XENMEM_exchange, &x);
}

/* @n fresh frames of the guest's, each filled with PATTERN if @fill. */
static void fresh(xen_pfn_t *list, unsigned long n, bool fill)
{
    for ( unsigned long i = 0; i < n; i++ )
    {
        list[i] = alloc_frame();
        if ( fill )
            frame_fill(list[i], PATTERN);
    }
}

static bool filled(unsigned long mfn, int byte)
{
    static uint8_t b[PAGE_SIZE];

    frame_read(mfn, 0, b, sizeof(b));
    for ( unsigned int i = 0; i < PAGE_SIZE; i++ )
        if ( b[i] != (uint8_t)byte )
            return false;
    return true;
}

/* The old frames are gone: no M2P entry, and not the guest's to map. */
static void check_gone(const char *what, const xen_pfn_t *list,
                       unsigned long n)
{
    for ( unsigned long i = 0; i < n; i++ )
    {
        if ( mfn_to_pfn(list[i]) != INVALID_M2P )
            test_fail("%s: old mfn %#lx: M2P %#lx", what,
                      (unsigned long)list[i], mfn_to_pfn(list[i]));
        if ( !map_frame_at(W, list[i], PTE_RO) )
        {
            test_fail("%s: old mfn %#lx still maps", what,
                      (unsigned long)list[i]);
            check_rc(remap_initial(W), 0);
        }
    }
}

/*
 * An extent of 2^@order new frames at @mfn for gpfn @gpfn: aligned, M2P
 * entries at the gpfns, ours to write; every frame of a small extent
 * (and each 37th of a big one, the last too: each is a mapping, audited)
 * zeroed.
 */
static void check_new(const char *what, unsigned long mfn,
                      unsigned int order, unsigned long gpfn, bool all)
{
    unsigned long n = 1UL << order;

    if ( mfn & (n - 1) )
        test_fail("%s: mfn %#lx not aligned to its order %u", what, mfn,
                  order);
    for ( unsigned long k = 0; k < n; k++ )
    {
        if ( mfn_to_pfn(mfn + k) != gpfn + k )
            test_fail("%s: mfn %#lx: M2P %#lx, expected %#lx", what,
                      mfn + k, mfn_to_pfn(mfn + k), gpfn + k);
        if ( (all || !(k % 37) || k == n - 1) && !filled(mfn + k, 0) )
            test_fail("%s: mfn %#lx not zeroed", what, mfn + k);
    }
    frame_fill(mfn, PATTERN);           /* writable: the guest's */
}

static void check_kept(const char *what, const xen_pfn_t *list,
                       unsigned long n)
{
    for ( unsigned long i = 0; i < n; i++ )
        if ( !filled(list[i], PATTERN) )
            test_fail("%s: mfn %#lx lost its contents",
                      what, (unsigned long)list[i]);
}

static void contiguous(void)
{
    xen_pfn_t old[512], big;
    unsigned long gpfn = 0x70000;

    /* 512 frames for one 2 MiB extent. */
    fresh(in, 512, false);
    memcpy(old, in, sizeof(old));
    out[0] = gpfn;
    check_rc(exchange(in, 512, 0, out, 1, 9, 0), 0);
    check_rc(x.nr_exchanged, 512);
    check_new("512 for one", out[0], 9, gpfn, false);
    check_gone("512 for one", old, 512);

    /* And back: the extent for 512 frames at gpfns of our choosing. */
    big = out[0];
    for ( unsigned int i = 0; i < 512; i++ )
        out[i] = 0x80000 + 3 * i;
    check_rc(exchange(&big, 1, 9, out, 512, 0, 0), 0);
    check_rc(x.nr_exchanged, 1);
    for ( unsigned int i = 0; i < 512; i++ )
        check_new("one for 512", out[i], 0, 0x80000 + 3 * i, !(i % 37));
    check_gone("one for 512", &big, 1);

    /* 8 frames for one order-3 extent below 4 GiB. */
    fresh(in, 8, true);
    memcpy(old, in, 8 * sizeof(*in));
    out[0] = gpfn;
    check_rc(exchange(in, 8, 0, out, 1, 3, XENMEMF_address_bits(32)), 0);
    check_new("below 4 GiB", out[0], 3, gpfn, true);
    if ( out[0] + 8 > (1UL << 20) )
        test_fail("below 4 GiB: mfn %#lx", (unsigned long)out[0]);
    check_gone("below 4 GiB", old, 8);
}

/* A chunk that fails: nothing exchanged, every frame as it was. */
static void refused(const char *what, unsigned long bad, long want)
{
    fresh(in, 4, true);
    in[2] = bad;
    check_rc(exchange(in, 4, 0, out, 1, 2, 0), want);
    if ( x.nr_exchanged )
        test_fail("%s: nr_exchanged %lu", what,
                  (unsigned long)x.nr_exchanged);
    in[2] = in[3];
    check_kept(what, in, 3);
}

static void refusals(void)
{
    unsigned long l1 = alloc_frame(), f = alloc_frame();
    xen_pfn_t old[2];

    check_rc(map_frame_at(W, f, PTE_RW), 0);
    refused("a frame mapped", f, -XEN_EINVAL);
    check_rc(remap_initial(W), 0);
    check_rc(pin_table(1, l1), 0);
    refused("a pinned L1", l1, -XEN_EINVAL);
    check_rc(unpin_table(l1), 0);
    refused("shared_info", start_info->shared_info >> PAGE_SHIFT,
            -XEN_EINVAL);
    refused("the hypervisor's frame", hypervisor_frame(), -XEN_EINVAL);
    refused("a frame past RAM", maximum_ram_page(), -XEN_EINVAL);
    /* Address bits no frame fits: -ENOMEM, the stolen frames back. */
    fresh(in, 4, true);
    check_rc(exchange(in, 4, 0, out, 1, 2, XENMEMF_address_bits(13)),
             -XEN_ENOMEM);
    check_kept("13 address bits", in, 4);

    /* The second chunk fails: the first done, and said so. */
    fresh(in, 2, true);
    memcpy(old, in, sizeof(old));
    in[1] = hypervisor_frame();
    out[0] = 0x90000;
    out[1] = 0x90001;
    check_rc(exchange(in, 2, 0, out, 2, 0, 0), -XEN_EINVAL);
    check_rc(x.nr_exchanged, 1);
    check_new("the first of two", out[0], 0, 0x90000, true);
    check_gone("the first of two", old, 1);
    check_kept("the second of two", &old[1], 1);

    /* What is refused before any frame moves. */
    fresh(in, 4, true);
    check_rc(exchange(in, 4, 0, out, 2, 0, 0), -XEN_EINVAL);   /* sizes */
    check_rc(exchange(in, 4, 0, out, 1, 10, 0), -XEN_EPERM);
    check_rc(exchange(in, 4, 10, out, 4, 10, 0), -XEN_EPERM);
    memset(&x, 0, sizeof(x));
    set_xen_guest_handle(x.in.extent_start, in);
    set_xen_guest_handle(x.out.extent_start, out);
    x.in.nr_extents = x.out.nr_extents = 4;
    x.in.domid = DOMID_SELF;
    x.out.domid = 1;
    check_rc(memory_op(XENMEM_exchange, &x), -XEN_EINVAL);    /* domains */
    x.in.domid = x.out.domid = 0;
    check_rc(memory_op(XENMEM_exchange, &x), -XEN_EPERM);
    x.in.domid = x.out.domid = 7;
    check_rc(memory_op(XENMEM_exchange, &x), -XEN_ESRCH);
    x.in.domid = x.out.domid = DOMID_SELF;
    x.nr_exchanged = 5;
    check_rc(memory_op(XENMEM_exchange, &x), -XEN_EINVAL);
    x.nr_exchanged = 4;
    check_rc(memory_op(XENMEM_exchange, &x), 0);              /* all done */
    x.nr_exchanged = 0;
    check_rc(memory_op(XENMEM_exchange | (1 << MEMOP_EXTENT_SHIFT), &x),
             -XEN_EINVAL);
    set_xen_guest_handle(x.in.extent_start, (xen_pfn_t *)BAD_XEN);
    check_rc(memory_op(XENMEM_exchange, &x), -XEN_EFAULT);
    check_rc(memory_op(XENMEM_exchange, BAD_XEN), -XEN_EFAULT);
    check_kept("refused early", in, 4);

    /* A machine node asked for exactly (Xen's propagate_node()). */
    set_xen_guest_handle(x.in.extent_start, in);
    x.out.mem_flags = XENMEMF_node(0) | XENMEMF_exact_node_request;
    check_rc(memory_op(XENMEM_exchange, &x), -XEN_EINVAL);
    x.out.mem_flags = 0;
    check_kept("refused early", in, 4);

    /* One frame named twice in a chunk: stolen once, given back once. */
    old[0] = in[0];
    in[1] = in[0];
    check_rc(exchange(in, 2, 0, out, 1, 1, 0), -XEN_EINVAL);
    check_kept("named twice", old, 1);

    /*
     * An out list in range but unmapped: as in Xen, the first chunk is
     * done before its gpfn is read (its new frame the guest's, with no
     * M2P entry, its mfn never told) and the exchange stops there,
     * -EFAULT, nr_exchanged not counting it; the other three stay.
     */
    fresh(in, 4, true);
    check_rc(exchange(in, 4, 0, (xen_pfn_t *)BAD_UNMAPPED, 4, 0, 0),
             -XEN_EFAULT);
    check_rc(x.nr_exchanged, 0);
    check_gone("an out list unmapped", in, 1);
    check_kept("an out list unmapped", &in[1], 3);
}

void test_main(void)
{
    long before = current_reservation();

    contiguous();
    refusals();
    if ( current_reservation() != before )
        test_fail("current_reservation %ld, was %ld", current_reservation(),
                  before);
    test_success();
}
