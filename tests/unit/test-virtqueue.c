/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the split virtqueue (drivers/virtio/virtqueue.c), with
 * this test playing the device: vring_need_event() across index
 * wrap-around, direct chains and indirect tables as the device would walk
 * them, a full ring, notification suppression with and without event
 * index (interrupts off while draining), completions freeing exactly their descriptors, and used entries
 * the driver never gave (ids past the ring, twice, an index far ahead,
 * which breaks the queue for good) refused.  The rings are heap copies
 * of exactly their size, so ASan sees any access past them.
 */
#include "tests/unit/unit.h"
#include "../../drivers/virtio/virtqueue.c"

#define SIZE        8
#define IND_ADDR    0x100000ULL

static struct virtqueue vq;
static struct vring_desc *desc, *ind;
static struct vring_avail *avail;
static struct vring_used *used;
static uint16_t dev_last_avail;         /* the device's view */

static void setup(bool indirect, bool event_idx)
{
    free(desc); free(avail); free(used); free(ind);
    desc = calloc(1, VQ_DESC_BYTES(SIZE));
    avail = calloc(1, VQ_AVAIL_BYTES(SIZE) + 2);
    used = calloc(1, VQ_USED_BYTES(SIZE) + 2);
    ind = indirect ? calloc(1, SIZE * VQ_INDIRECT_BYTES) : NULL;
    vq_init(&vq, 0, SIZE, desc, avail, used, ind, IND_ADDR, event_idx);
    dev_last_avail = 0;
}

static int cookies[64];

/* The device: the next available head, or -1. */
static int dev_pop(void)
{
    if ( dev_last_avail == avail->idx )
        return -1;
    return avail->ring[dev_last_avail++ % SIZE];
}

/* The device: complete @id, having written @len bytes. */
static void dev_push(uint32_t id, uint32_t len)
{
    used->ring[used->idx % SIZE] = (struct vring_used_elem){ id, len };
    used->idx++;
}

static void test_need_event(void)
{
    /* Crossing the event index from below, just reaching it, or not. */
    CHECK(vring_need_event(5, 6, 5));
    CHECK(vring_need_event(5, 10, 3));
    CHECK(!vring_need_event(5, 5, 3));
    CHECK(!vring_need_event(10, 8, 3));
    CHECK(!vring_need_event(2, 6, 4));
    /* Across the 16-bit wrap. */
    CHECK(vring_need_event(0xffff, 0x0001, 0xfffe));
    CHECK(vring_need_event(0x0000, 0x0002, 0xfffe));
    CHECK(!vring_need_event(0x0005, 0x0002, 0xfffe));
    /* No movement never notifies. */
    CHECK(!vring_need_event(7, 7, 7));
}

static void test_direct_chain(void)
{
    struct vq_buf b[3] = {
        { 0x1000, 16, false }, { 0x2000, 4096, true }, { 0x3000, 1, true },
    };
    uint32_t len;
    bool bad;
    int head, i;

    setup(false, false);
    CHECK_EQ(vq_add(&vq, b, 3, &cookies[0]), 0);
    CHECK_EQ(vq.num_free, SIZE - 3);
    CHECK_EQ(avail->idx, 0);                /* not published yet */
    CHECK(vq_kick_prepare(&vq));
    CHECK_EQ(avail->idx, 1);

    head = dev_pop();
    CHECK_EQ(head, 0);
    for ( i = 0, head = 0; i < 3; i++ )
    {
        CHECK_EQ(desc[head].addr, b[i].addr);
        CHECK_EQ(desc[head].len, b[i].len);
        CHECK_EQ(!!(desc[head].flags & VRING_DESC_F_WRITE), b[i].write);
        CHECK_EQ(!!(desc[head].flags & VRING_DESC_F_NEXT), i < 2);
        head = desc[head].next;
    }
    CHECK(vq_get_used(&vq, &len, &bad) == NULL);
    dev_push(0, 4097);
    CHECK(vq_get_used(&vq, &len, &bad) == &cookies[0]);
    CHECK(!bad);
    CHECK_EQ(len, 4097);
    CHECK_EQ(vq.num_free, SIZE);
}

static void test_indirect(void)
{
    struct vq_buf b[VQ_INDIRECT_MAX + 1];
    const struct vring_desc *t;
    uint32_t len;
    bool bad;
    int head, i;

    for ( i = 0; i < VQ_INDIRECT_MAX + 1; i++ )
        b[i] = (struct vq_buf){ 0x10000 + i * 512ULL, 512, i & 1 };
    setup(true, false);
    CHECK_EQ(vq_add(&vq, b, VQ_INDIRECT_MAX + 1, &cookies[0]), VQ_TOO_BIG);
    CHECK_EQ(vq_add(&vq, b, 0, &cookies[0]), VQ_TOO_BIG);
    CHECK_EQ(vq_add(&vq, b, VQ_INDIRECT_MAX, &cookies[1]), 0);
    CHECK_EQ(vq.num_free, SIZE - 1);        /* one slot for a whole table */
    /* A single buffer goes direct: a table would cost the device a read. */
    CHECK_EQ(vq_add(&vq, b, 1, &cookies[2]), 0);
    CHECK_EQ(vq.num_free, SIZE - 2);
    vq_kick_prepare(&vq);

    head = dev_pop();
    CHECK_EQ(desc[head].flags, VRING_DESC_F_INDIRECT);
    CHECK_EQ(desc[head].len, VQ_INDIRECT_MAX * sizeof(struct vring_desc));
    CHECK_EQ(desc[head].addr, IND_ADDR + head * (uint64_t)VQ_INDIRECT_BYTES);
    t = &ind[head * VQ_INDIRECT_MAX];
    for ( i = 0; i < VQ_INDIRECT_MAX; i++ )
    {
        CHECK_EQ(t[i].addr, b[i].addr);
        CHECK_EQ(!!(t[i].flags & VRING_DESC_F_WRITE), i & 1);
        CHECK_EQ(!!(t[i].flags & VRING_DESC_F_NEXT), i + 1 < VQ_INDIRECT_MAX);
        if ( i + 1 < VQ_INDIRECT_MAX )
            CHECK_EQ(t[i].next, i + 1);
    }
    head = dev_pop();
    CHECK_EQ(desc[head].flags, 0);
    CHECK_EQ(desc[head].addr, b[0].addr);

    /* Out of order completion. */
    dev_push(head, 0);
    CHECK(vq_get_used(&vq, &len, &bad) == &cookies[2]);
    dev_push(0, 7);
    CHECK(vq_get_used(&vq, &len, &bad) == &cookies[1]);
    CHECK_EQ(vq.num_free, SIZE);
}

static void test_full(void)
{
    struct vq_buf b[3] = { { 1, 1, false }, { 2, 1, false }, { 3, 1, true } };
    uint32_t len;
    bool bad;
    int i, n = 0;

    setup(false, false);
    while ( vq_add(&vq, b, 3, &cookies[n]) == 0 )
        n++;
    CHECK_EQ(n, SIZE / 3);
    CHECK_EQ(vq_add(&vq, b, 3, &cookies[n]), VQ_FULL);
    CHECK_EQ(vq_add(&vq, b, SIZE + 1, &cookies[n]), VQ_TOO_BIG);
    CHECK_EQ(vq_add(&vq, b, 2, &cookies[n]), 0);   /* what is left */
    vq_kick_prepare(&vq);
    for ( i = 0; i <= n; i++ )
        dev_push(dev_pop(), 0);
    for ( i = 0; i <= n; i++ )
        CHECK(vq_get_used(&vq, &len, &bad) == &cookies[i]);
    CHECK_EQ(vq.num_free, SIZE);
}

/* Many rounds, so every index wraps past 65535. */
static void test_wrap(void)
{
    struct vq_buf b[2] = { { 1, 1, false }, { 2, 1, true } };
    uint32_t len, round;
    bool bad, ok = true;
    int h1, h2;

    setup(true, true);
    for ( round = 0; round < 70000; round++ )
    {
        ok &= vq_add(&vq, b, 2, &cookies[0]) == 0;
        ok &= vq_add(&vq, b, 1, &cookies[1]) == 0;
        vq_kick_prepare(&vq);
        h1 = dev_pop();
        h2 = dev_pop();
        ok &= h1 >= 0 && h2 >= 0 && dev_pop() < 0;
        dev_push(h2, 1);
        dev_push(h1, 2);
        ok &= vq_get_used(&vq, &len, &bad) == &cookies[1] && len == 1;
        ok &= vq_get_used(&vq, &len, &bad) == &cookies[0] && len == 2;
        ok &= vq_get_used(&vq, &len, &bad) == NULL && !bad;
        ok &= vq.num_free == SIZE;
    }
    CHECK(ok);
    CHECK_EQ(vq.avail_idx, (uint16_t)(2 * 70000));
}

static void test_notify_suppression(void)
{
    struct vq_buf b = { 1, 1, false };
    uint16_t *avail_event, *used_event;
    uint32_t len;
    bool bad;

    /* Without event index: the device's NO_NOTIFY flag. */
    setup(false, false);
    vq_add(&vq, &b, 1, &cookies[0]);
    CHECK(vq_kick_prepare(&vq));
    used->flags = VRING_USED_F_NO_NOTIFY;
    vq_add(&vq, &b, 1, &cookies[1]);
    CHECK(!vq_kick_prepare(&vq));
    vq_disable_cb(&vq);
    CHECK_EQ(avail->flags, VRING_AVAIL_F_NO_INTERRUPT);
    CHECK(!vq_enable_cb(&vq));
    CHECK_EQ(avail->flags, 0);
    dev_push(dev_pop(), 0);
    CHECK(vq_enable_cb(&vq));               /* one arrived: drain again */

    /* With it: the device's avail_event, our used_event. */
    setup(false, true);
    avail_event = (uint16_t *)&used->ring[SIZE];
    used_event = &avail->ring[SIZE];
    *avail_event = 0;                       /* wants to hear of entry 0 */
    vq_add(&vq, &b, 1, &cookies[0]);
    CHECK(vq_kick_prepare(&vq));
    vq_add(&vq, &b, 1, &cookies[1]);
    CHECK(!vq_kick_prepare(&vq));           /* already told: 1 not asked */
    *avail_event = 2;                       /* wants to hear of entry 2 */
    vq_add(&vq, &b, 1, &cookies[2]);
    CHECK(vq_kick_prepare(&vq));
    vq_add(&vq, &b, 1, &cookies[3]);
    CHECK(!vq_kick_prepare(&vq));
    /* Two at once, the second the one asked for. */
    *avail_event = 5;
    vq_add(&vq, &b, 1, &cookies[4]);
    vq_add(&vq, &b, 1, &cookies[5]);
    CHECK(vq_kick_prepare(&vq));
    dev_push(dev_pop(), 0);
    CHECK(vq_get_used(&vq, &len, &bad) == &cookies[0]);
    CHECK_EQ(*used_event, 1);               /* interrupt for the next one */
}

/*
 * The device's side of an interrupt with event index: it moved its used
 * index from @old to used->idx; does used_event ask to hear of that?
 */
static bool dev_interrupts(uint16_t old)
{
    return vring_need_event(avail->ring[SIZE], used->idx, old);
}

/* With event index, no interrupt while draining, one after it. */
static void test_drain_suppression(void)
{
    struct vq_buf b = { 1, 1, false };
    uint16_t old;
    uint32_t len;
    bool bad;
    int i, got;

    setup(false, true);
    for ( i = 0; i < SIZE; i++ )
        vq_add(&vq, &b, 1, &cookies[i]);
    vq_kick_prepare(&vq);
    old = used->idx;
    dev_push(dev_pop(), 0);
    CHECK(dev_interrupts(old));             /* the first completion */

    /*
     * A drain of the ring with the device completing one more after each
     * look: none of those completions interrupts.  Without the
     * suppression each would (vq_get_used() moved used_event along).
     */
    vq_disable_cb(&vq);
    got = 0;
    while ( vq_get_used(&vq, &len, &bad) )
    {
        got++;
        old = used->idx;
        if ( dev_last_avail != avail->idx )
        {
            dev_push(dev_pop(), 0);
            CHECK(!dev_interrupts(old));
        }
    }
    CHECK_EQ(got, SIZE);
    CHECK(!vq_enable_cb(&vq));
    CHECK_EQ(avail->ring[SIZE], vq.last_used);

    /* Re-enabled: the next completion interrupts again. */
    vq_add(&vq, &b, 1, &cookies[0]);
    vq_kick_prepare(&vq);
    old = used->idx;
    dev_push(dev_pop(), 0);
    CHECK(dev_interrupts(old));

    /*
     * Off with the whole ring completed behind it, across the 16-bit
     * wrap: still no interrupt; and one that came in before the enable
     * is reported by it (drain again).
     */
    CHECK(vq_get_used(&vq, &len, &bad) == &cookies[0]);
    vq.last_used = used->idx = 0xfffe;
    dev_last_avail = avail->idx;
    vq_disable_cb(&vq);
    for ( i = 0; i < SIZE; i++ )
        vq_add(&vq, &b, 1, &cookies[i]);
    vq_kick_prepare(&vq);
    old = used->idx;
    for ( i = 0; i < SIZE; i++ )
        dev_push(dev_pop(), 0);
    CHECK(!dev_interrupts(old));
    CHECK(vq_enable_cb(&vq));
}

static void test_bad_used(void)
{
    struct vq_buf b = { 1, 1, false };
    uint32_t len;
    bool bad;

    setup(false, false);
    vq_add(&vq, &b, 1, &cookies[0]);
    vq_kick_prepare(&vq);
    dev_pop();
    dev_push(SIZE, 0);                      /* past the ring */
    dev_push(5, 0);                         /* never given */
    dev_push(0, 0);
    CHECK(vq_get_used(&vq, &len, &bad) == &cookies[0]);
    CHECK(bad);
    CHECK_EQ(vq.num_free, SIZE);
    dev_push(0, 0);                         /* the same again */
    CHECK(vq_get_used(&vq, &len, &bad) == NULL);
    CHECK(bad);
    CHECK_EQ(vq.num_free, SIZE);            /* nothing freed twice */

    /* An index far past what could be outstanding. */
    vq_add(&vq, &b, 1, &cookies[1]);
    vq_kick_prepare(&vq);
    used->idx += 1000;
    CHECK(vq_get_used(&vq, &len, &bad) == NULL);
    CHECK(bad);
    CHECK_EQ(vq.num_free, SIZE - 1);
    /*
     * The queue is broken for good: the drivers' drain loop (disable, get
     * until none, again while enable says more came) must end.
     */
    CHECK(!vq_enable_cb(&vq));
    used->idx = vq.last_used + 1;       /* even an index that looks sane */
    CHECK(vq_get_used(&vq, &len, &bad) == NULL);
    CHECK(!bad);
    CHECK(!vq_enable_cb(&vq));
}

int main(void)
{
    RUN(test_need_event);
    RUN(test_direct_chain);
    RUN(test_indirect);
    RUN(test_full);
    RUN(test_wrap);
    RUN(test_notify_suppression);
    RUN(test_drain_suppression);
    RUN(test_bad_used);
    free(desc); free(avail); free(used); free(ind);
    UNIT_EXIT();
}
