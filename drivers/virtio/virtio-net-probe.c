/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-net (virtio 1.2, 5.1) brought up as a network device
 * (drivers/net.h): features (MAC, status, MTU, mergeable buffers,
 * checksum and TSO offloads, MQ through the control queue), a queue pair
 * per CPU with its interrupts on that CPU, or a 1 ms poll without MSI-X.
 * The data path is virtio-net.c.
 */
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/time.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/virtio/virtio-net-dev.h"
#include "shim/console.h"
#include "shim/param.h"

static unsigned int nr_vnets;

/* virtio-net-rxbuf=: the mergeable receive buffers' size (command-line.md). */
static unsigned long opt_rxbuf = VNET_BUF_MRG;
size_param("virtio-net-rxbuf", opt_rxbuf);

static unsigned int mrg_buf_size(void)
{
    static bool warned;

    if ( opt_rxbuf >= VNET_BUF_MRG_MIN && opt_rxbuf <= VNET_BUF_MRG_MAX &&
         !(opt_rxbuf & (opt_rxbuf - 1)) )
        return opt_rxbuf;
    if ( !warned )
        printk(XENLOG_WARNING "virtio-net-rxbuf: %lu bytes is not 1, 2 or "
               "4 KiB: %u bytes\n", opt_rxbuf, VNET_BUF_MRG);
    warned = true;
    return VNET_BUF_MRG;
}

static void vnet_irq(void *data)
{
    struct vnet_queue *q = data;

    q->irqs++;
    net_queue_interrupt(&q->vn->net, q->index);
}

/* The control queue is polled: its interrupt has nothing to do. */
static void vnet_ctrl_irq(void *data)
{
}

static void vnet_poll(void *data)
{
    struct vnet *vn = data;
    unsigned int i;

    for ( i = 0; i < vn->net.nr_queues; i++ )
        if ( vn->q[i].rxq.polled || vn->q[i].txq.polled )
            net_queue_interrupt(&vn->net, i);
    set_timer(&vn->poll, NOW() + VNET_POLL_NS);
}

/* Pair @i: its receive and send queues, interrupts on CPU i mod CPUs. */
static bool setup_queue(struct vnet *vn, unsigned int i)
{
    struct vnet_queue *q = &vn->q[i];
    unsigned int n, cpu = smp_queue_cpu(i);

    spin_lock_init(&q->rx_lock, LOCK_RANK_NET_RX);
    spin_lock_init(&q->tx_lock, LOCK_RANK_NET_TX);
    lock_profile_name(&q->rx_lock, &lock_profile_global, "%s->q[%u].rx_lock",
                      vn->net.name, i);
    lock_profile_name(&q->tx_lock, &lock_profile_global, "%s->q[%u].tx_lock",
                      vn->net.name, i);
    q->vn = vn;
    q->index = i;
    /* Entry 0 stays for configuration changes, unused (4.1.5.1.2). */
    if ( !virtio_queue_setup(&vn->vd, &q->rxq, 2 * i, VNET_QUEUE_SIZE,
                             2 * i + 1, cpu, vnet_irq, q) ||
         !virtio_queue_setup(&vn->vd, &q->txq, 2 * i + 1, VNET_QUEUE_SIZE,
                             2 * i + 2, cpu, vnet_irq, q) )
        return false;
    /* From the top of memory: out of the way of the guest's runs. */
    q->rx_bufs = dma_alloc_top((unsigned long)q->rxq.size * vn->buf_size);
    q->pkts = dma_alloc(q->rxq.size * sizeof(*q->pkts));
    q->slots = dma_alloc(q->txq.size * sizeof(*q->slots));
    if ( !q->rx_bufs || !q->pkts || !q->slots )
        return false;
    for ( n = 0; n < q->rxq.size; n++ )
    {
        q->pkts[n].next_free = q->free_pkt;
        q->free_pkt = &q->pkts[n];
        vnet_rx_post(vn, q, n);
    }
    vq_kick_prepare(&q->rxq);
    for ( n = 0; n < q->txq.size; n++ )
        q->slots[n].next_free = n + 1;
    q->free_slot = 0;
    return true;
}

/* The control queue, after the pairs (5.1.2), polled. */
static bool setup_ctrl(struct vnet *vn, unsigned int max_pairs)
{
    spin_lock_init(&vn->ctrl_lock, LOCK_RANK_NET_CTRL);
    lock_profile_name(&vn->ctrl_lock, &lock_profile_global, "%s->ctrl_lock",
                      vn->net.name);
    vn->ctrl = dma_alloc(sizeof(*vn->ctrl));
    return vn->ctrl &&
           virtio_queue_setup(&vn->vd, &vn->ctrlq, 2 * max_pairs, 64,
                              2 * vn->net.nr_queues + 1, 0, vnet_ctrl_irq,
                              vn);
}

/*
 * A control command (5.1.6.5) with @len bytes of @data, awaited at most
 * VNET_CTRL_NS (QEMU answers it during the notification); whether the
 * device said VIRTIO_NET_OK.  A command that timed out leaves the queue
 * unused from then on: its buffers are still the device's.
 */
bool vnet_ctrl(struct vnet *vn, uint8_t class, uint8_t cmd,
               const void *data, unsigned int len)
{
    struct vq_buf b[3] = {
        { dma_addr(&vn->ctrl->class), 2, false },
        { dma_addr(vn->ctrl->data), len, false },
        { dma_addr(&vn->ctrl->ack), 1, true },
    };
    uint64_t start = now_ns();
    uint32_t used;
    bool bad = false, ok = false;

    ASSERT(len <= sizeof(vn->ctrl->data));
    spin_lock(&vn->ctrl_lock);
    if ( vn->ctrl_stuck )
        goto out;
    vn->ctrl->class = class;
    vn->ctrl->cmd = cmd;
    memcpy(vn->ctrl->data, data, len);
    vn->ctrl->ack = 0xff;
    if ( vq_add(&vn->ctrlq, b, 3, vn->ctrl) )
        goto out;
    if ( vq_kick_prepare(&vn->ctrlq) )
        virtio_notify(&vn->vd, &vn->ctrlq);
    while ( !vq_get_used(&vn->ctrlq, &used, &bad) )
        if ( bad || now_ns() - start > VNET_CTRL_NS )
        {
            vn->ctrl_stuck = true;
            goto out;
        }
    ok = ACCESS_ONCE(vn->ctrl->ack) == VIRTIO_NET_OK;
 out:
    spin_unlock(&vn->ctrl_lock);
    return ok;
}

/* VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET (5.1.6.5.5). */
static bool set_pairs(struct vnet *vn, unsigned int nr)
{
    uint16_t pairs = nr;

    return vnet_ctrl(vn, VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
                     &pairs, sizeof(pairs));
}

/* What to accept: the offloads' dependencies (5.1.3.1) kept. */
static uint64_t wanted(struct virtio_dev *vd)
{
    uint64_t w = 1ULL << VIRTIO_NET_F_MAC | 1ULL << VIRTIO_NET_F_STATUS |
                 1ULL << VIRTIO_NET_F_MRG_RXBUF | 1ULL << VIRTIO_NET_F_MTU |
                 1ULL << VIRTIO_NET_F_GUEST_CSUM;

    if ( virtio_offers(vd, VIRTIO_NET_F_CSUM) )
        w |= 1ULL << VIRTIO_NET_F_CSUM | 1ULL << VIRTIO_NET_F_HOST_TSO4 |
             1ULL << VIRTIO_NET_F_HOST_TSO6;
    if ( virtio_offers(vd, VIRTIO_NET_F_CTRL_VQ) &&
         virtio_offers(vd, VIRTIO_NET_F_MQ) )
        w |= 1ULL << VIRTIO_NET_F_CTRL_VQ | 1ULL << VIRTIO_NET_F_MQ;
    /*
     * The device's own TCP GSO to us (a tap's host kernel hands its
     * large packets on whole), only where it can be switched on and off
     * as the receiver wants (the netback's frontend may take none), in
     * mergeable buffers (a 64 KiB packet in 33), with its sum left
     * blank (GUEST_CSUM, which GUEST_TSO4/6 need: 5.1.3.1).
     */
    if ( virtio_offers(vd, VIRTIO_NET_F_CTRL_VQ) &&
         virtio_offers(vd, VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) &&
         virtio_offers(vd, VIRTIO_NET_F_GUEST_CSUM) &&
         virtio_offers(vd, VIRTIO_NET_F_MRG_RXBUF) )
        w |= 1ULL << VIRTIO_NET_F_CTRL_VQ |
             1ULL << VIRTIO_NET_F_CTRL_GUEST_OFFLOADS |
             1ULL << VIRTIO_NET_F_GUEST_TSO4 | 1ULL << VIRTIO_NET_F_GUEST_TSO6;
    return w;
}

/* MAC, MTU and offloads as the interface says them; the buffer size. */
static void read_config(struct vnet *vn)
{
    struct virtio_dev *vd = &vn->vd;
    struct net_dev *n = &vn->net;
    unsigned int i, mtu = VNET_MTU_DEFAULT;
    static const struct { unsigned int bit, f; } map[] = {
        { VIRTIO_NET_F_CSUM, NET_F_CSUM_TX },
        { VIRTIO_NET_F_GUEST_CSUM, NET_F_CSUM_RX },
        { VIRTIO_NET_F_HOST_TSO4, NET_F_TSO4 },
        { VIRTIO_NET_F_HOST_TSO6, NET_F_TSO6 },
        { VIRTIO_NET_F_GUEST_TSO4, NET_F_GSO_RX4 },
        { VIRTIO_NET_F_GUEST_TSO6, NET_F_GSO_RX6 },
        { VIRTIO_NET_F_MRG_RXBUF, NET_F_MRG_RX },
        { VIRTIO_NET_F_STATUS, NET_F_LINK_STATE },
    };

    for ( i = 0; i < ARRAY_SIZE(map); i++ )
        if ( virtio_has(vd, map[i].bit) )
            n->features |= map[i].f;
    if ( virtio_has(vd, VIRTIO_NET_F_MAC) )
        for ( i = 0; i < NET_ETH_ALEN; i++ )
            n->mac[i] = virtio_cfg_read(vd, VNET_CFG_MAC + i, 1);
    else
    {
        /* Locally administered, unicast, one per device (5.1.5). */
        static const uint8_t base[NET_ETH_ALEN] = { 0x02, 0, 0, 0, 0, 1 };

        memcpy(n->mac, base, NET_ETH_ALEN);
        n->mac[5] += nr_vnets;
    }
    if ( virtio_has(vd, VIRTIO_NET_F_MTU) )
        mtu = MAX(MIN(virtio_cfg_read(vd, VNET_CFG_MTU, 2), 9000ul), 68ul);
    n->mtu = mtu;
    /* Without MRG_RXBUF a buffer holds a whole frame (5.1.6.3.1). */
    vn->buf_size = mrg_buf_size();
    if ( !virtio_has(vd, VIRTIO_NET_F_MRG_RXBUF) )
        vn->buf_size = MAX(ROUNDUP(VNET_HDR_LEN + NET_ETH_HLEN +
                                   NET_VLAN_HLEN + mtu, 64), VNET_BUF_BIG);
}

/* Pairs: one per CPU where the device has MQ, up to NET_MAX_QUEUES. */
static unsigned int max_pairs(struct vnet *vn)
{
    unsigned int nr = 1;

    if ( virtio_has(&vn->vd, VIRTIO_NET_F_MQ) )
        nr = MAX(virtio_cfg_read(&vn->vd, VNET_CFG_MAX_PAIRS, 2), 1ul);
    return nr;
}

static void log_device(struct vnet *vn)
{
    const struct net_dev *n = &vn->net;
    const uint8_t *m = n->mac;
    char name[8];

    printk("PCI: %s %04x:%04x virtio-net, MAC %02x:%02x:%02x:%02x:%02x:%02x,"
           " MTU %u, %u queue pair%s, %s%s%s%s%s%s%s\n",
           pci_name(vn->vd.pci, name), vn->vd.pci->vendor,
           vn->vd.pci->device, m[0], m[1], m[2], m[3], m[4], m[5], n->mtu,
           n->nr_queues, n->nr_queues > 1 ? "s" : "",
           vn->vd.msix ? "MSI-X" : "polled",
           n->features & NET_F_MRG_RX ? ", mergeable receive buffers" : "",
           n->features & NET_F_CSUM_TX ? ", checksum offload" : "",
           n->features & NET_F_CSUM_RX ? ", receive checksum" : "",
           n->features & NET_F_TSO4 ? ", TSO4" : "",
           n->features & NET_F_TSO6 ? ", TSO6" : "",
           n->features & NET_F_GSO_RX4 ? ", GSO receive" : "");
    printk("%s: up to %u fragments, %u queue entries, %u-byte receive "
           "buffers%s%s, link %s", n->name, n->max_frags,
           vn->q[0].txq.size, vn->buf_size,
           virtio_has(&vn->vd, VIRTIO_F_RING_INDIRECT_DESC)
           ? ", indirect descriptors" : "",
           virtio_has(&vn->vd, VIRTIO_F_RING_EVENT_IDX)
           ? ", event index" : "",
           vnet_link_up(&vn->net) ? "up" : "down");
    if ( virtio_has(&vn->vd, VIRTIO_NET_F_MQ) )
        printk(", multiqueue: the device has %u pair%s", max_pairs(vn),
               max_pairs(vn) > 1 ? "s" : "");
    printk("\n");
}

static bool start(struct vnet *vn)
{
    unsigned int i, max = max_pairs(vn), nr;

    nr = MIN(MIN(max, num_online_cpus()), NET_MAX_QUEUES);
    nr = MIN(nr, (virtio_nr_queues(&vn->vd) - 1) / 2);
    vn->net.nr_queues = nr = MAX(nr, 1u);
    read_config(vn);
    for ( i = 0; i < nr; i++ )
        if ( !setup_queue(vn, i) )
            return false;
    if ( virtio_has(&vn->vd, VIRTIO_NET_F_CTRL_VQ) && !setup_ctrl(vn, max) )
        return false;
    virtio_driver_ok(&vn->vd);
    /* Buffers posted before DRIVER_OK: say so now it is live. */
    for ( i = 0; i < nr; i++ )
        virtio_notify(&vn->vd, &vn->q[i].rxq);
    /* The device starts with one pair (5.1.6.5.5.2). */
    if ( nr > 1 && !set_pairs(vn, nr) )
    {
        printk(XENLOG_WARNING "%s: the device refuses %u queue pairs: "
               "using 1\n", vn->net.name, nr);
        vn->net.nr_queues = 1;
    }
    /*
     * And with every receive offload negotiated on (5.1.6.5.6.2): its
     * GSO stays off until a receiver asks for it (net_rx_gso()).  A
     * device that won't turn it off gets its GSO packets dropped.
     */
    if ( (vn->net.features & (NET_F_GSO_RX4 | NET_F_GSO_RX6)) &&
         !vnet_rx_gso(&vn->net, 0) )
    {
        printk(XENLOG_WARNING "%s: the device refuses to stop its TCP "
               "GSO: such packets are dropped\n", vn->net.name);
        vn->net.features &= ~(NET_F_GSO_RX4 | NET_F_GSO_RX6);
    }
    return true;
}

bool virtio_net_probe(struct pci_dev *d)
{
    struct vnet *vn;
    unsigned int i;

    if ( d->vendor != VIRTIO_PCI_VENDOR ||
         (d->device != VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_NET &&
          !(d->device == VIRTIO_PCI_TRANS_NET &&
            d->subsys == VIRTIO_ID_NET)) )
        return false;
    if ( net_count() == NET_MAX_DEVS )
    {
        printk(XENLOG_WARNING "virtio-net: more than %u NICs: the rest "
               "are not used\n", NET_MAX_DEVS);
        return false;
    }
    /* As a virtio-blk disk's: frames of its own, kept if it fails. */
    if ( !(vn = dma_alloc(sizeof(*vn))) )
        return false;
    snprintf(vn->net.name, sizeof(vn->net.name), "virtio-net%u", nr_vnets);
    if ( !virtio_pci_init(&vn->vd, d) ||
         !virtio_negotiate(&vn->vd, wanted(&vn->vd)) )
        return false;
    vn->net.ops = &vnet_ops;
    vn->net.priv = vn;
    vn->net.pci = d;
    if ( !start(vn) )
    {
        printk(XENLOG_WARNING "%s: queues not set up: not used\n",
               vn->net.name);
        virtio_fail(&vn->vd);
        return false;
    }
    vn->net.max_frags = MIN(vq_max_bufs(&vn->q[0].txq), VQ_INDIRECT_MAX) - 1;
    for ( i = 0; i < vn->net.nr_queues &&
                !vn->q[i].rxq.polled && !vn->q[i].txq.polled; i++ )
        continue;
    if ( i < vn->net.nr_queues )        /* a pair without an interrupt */
    {
        init_timer(&vn->poll, vnet_poll, vn, smp_processor_id());
        set_timer(&vn->poll, NOW() + VNET_POLL_NS);
    }
    nr_vnets++;
    net_register(&vn->net);
    log_device(vn);
    return true;
}
