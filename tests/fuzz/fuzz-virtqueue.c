/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the split virtqueue (drivers/virtio/virtqueue.c)
 * against a broken device: the input is a script of driver requests and
 * of what the device writes into the used ring (proper completions, any
 * id and length, any used index, entries rewritten).  The driver drains
 * completions as virtio-blk and virtio-net do (disable, get until none,
 * enable and again if more came) and must always stop, hand back only
 * requests it gave, each once, and keep its descriptor count exact; ASan
 * watches the rings, each allocated to its exact size.
 */
#include "tests/fuzz/fuzz.h"
#include "drivers/virtio/virtqueue.c"

#define IND_ADDR    0x100000ULL

static struct virtqueue vq;
static struct vring_desc *desc, *ind;
static struct vring_avail *avail;
static struct vring_used *used;
static uint16_t dev_avail;              /* the device's next avail entry */
static bool given[VQ_SIZE_MAX];         /* cookie i outstanding */
static int cookies[VQ_SIZE_MAX];

static void add(struct fuzz_in *in)
{
    struct vq_buf b[5];
    unsigned int i, n = fuzz_u8(in) % 5 + 1, c;

    for ( c = 0; c < vq.size && given[c]; c++ )
        ;
    if ( c == vq.size )
        return;
    for ( i = 0; i < n; i++ )
        b[i] = (struct vq_buf){ 0x1000 * (i + 1), 512, i & 1 };
    if ( vq_add(&vq, b, n, &cookies[c]) == 0 )
        given[c] = true;
    vq_kick_prepare(&vq);
}

static void used_push(uint32_t id, uint32_t len)
{
    used->ring[used->idx & (vq.size - 1)] = (struct vring_used_elem){
        id, len };
    used->idx++;
}

/* The drivers' completion loop; it must end. */
static void drain(void)
{
    unsigned int guard = 0, limit = 4 * vq.size + 16;
    uint32_t len;
    bool bad;
    int *c;

    do {
        vq_disable_cb(&vq);
        while ( (c = vq_get_used(&vq, &len, &bad)) || bad )
        {
            FUZZ_ASSERT(++guard < limit);
            if ( !c )
                break;
            FUZZ_ASSERT(c >= cookies && c < cookies + vq.size);
            FUZZ_ASSERT(given[c - cookies]);
            given[c - cookies] = false;
        }
        FUZZ_ASSERT(++guard < limit);
    } while ( vq_enable_cb(&vq) );
}

/* Free descriptors plus those of the requests out: the whole ring. */
static void check_count(void)
{
    unsigned int h, held = 0, heads = 0, out = 0;

    for ( h = 0; h < vq.size; h++ )
    {
        if ( vq.cookie[h] )
        {
            held += vq.nr_desc[h];
            heads++;
        }
        out += given[h];
    }
    FUZZ_ASSERT(heads == out);
    FUZZ_ASSERT(vq.num_free <= vq.size);
    FUZZ_ASSERT(held + vq.num_free == vq.size);
    FUZZ_ASSERT(vq.free_head < vq.size || !vq.num_free);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    unsigned int cfg = fuzz_u8(&in), qsize = 1u << (cfg % 9), op;
    bool indirect = cfg & 0x10, event_idx = cfg & 0x20;

    desc = calloc(1, VQ_DESC_BYTES(qsize));
    avail = calloc(1, VQ_AVAIL_BYTES(qsize) + 2);
    used = calloc(1, VQ_USED_BYTES(qsize) + 2);
    ind = indirect ? calloc(1, qsize * VQ_INDIRECT_BYTES) : NULL;
    memset(given, 0, sizeof(given));
    dev_avail = 0;
    vq_init(&vq, 0, qsize, desc, avail, used, ind, IND_ADDR, event_idx);

    while ( in.left )
    {
        op = fuzz_u8(&in);
        switch ( op & 7 )
        {
        case 0:
        case 1:
            add(&in);
            break;
        case 2:                         /* the next request, done */
            if ( dev_avail != avail->idx )
                used_push(avail->ring[dev_avail++ & (qsize - 1)],
                          fuzz_u32(&in));
            break;
        case 3:                         /* any id, any length */
            used_push(fuzz_u16(&in), fuzz_u32(&in));
            break;
        case 4:                         /* any used index */
            used->idx = fuzz_u16(&in);
            break;
        case 5:                         /* an entry rewritten */
            used->ring[fuzz_u8(&in) & (qsize - 1)].id = fuzz_u16(&in);
            break;
        case 6:
        case 7:
            drain();
            break;
        }
        check_count();
    }
    drain();
    check_count();
    free(desc);
    free(avail);
    free(used);
    free(ind);
    return 0;
}
