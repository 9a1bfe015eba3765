/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network devices (net.h): the registry, the checks every packet
 * sent passes (net-lib.c), the checksum a device without the offload
 * leaves to us, the pair a CPU sends on, and the softirq that runs
 * completions and receptions where the pairs' interrupts arrive.
 */
#include "arch/x86/percpu.h"
#include "drivers/net.h"
#include "drivers/queue-pending.h"
#include "shim/softirq.h"

static struct net_dev *net_devs[8];
static unsigned int nr_net_devs;

static void net_softirq(void)
{
    unsigned int cpu = smp_processor_id(), i, q;

    for ( i = 0; i < ACCESS_ONCE(nr_net_devs); i++ )
    {
        struct net_dev *dev = net_devs[i];
        unsigned long pend = queue_pending_take(&dev->pending[cpu]);

        for ( q = 0; pend; q++, pend >>= 1 )
            if ( pend & 1 )
                dev->ops->complete(dev, q);
    }
}

bool net_register(struct net_dev *dev)
{
    if ( nr_net_devs == ARRAY_SIZE(net_devs) )
        return false;
    if ( !nr_net_devs )
        open_softirq(NET_SOFTIRQ, net_softirq);
    net_devs[nr_net_devs] = dev;
    __atomic_store_n(&nr_net_devs, nr_net_devs + 1, __ATOMIC_RELEASE);
    return true;
}

unsigned int net_count(void)
{
    return nr_net_devs;
}

struct net_dev *net_get(unsigned int index)
{
    return index < nr_net_devs ? net_devs[index] : NULL;
}

void net_set_receive(struct net_dev *dev, net_receive_t *fn, void *data)
{
    /* The data before the function a softirq may call it with. */
    ACCESS_ONCE(dev->receive_data) = data;
    __atomic_store_n(&dev->receive, fn, __ATOMIC_RELEASE);
}

void net_queue_interrupt(struct net_dev *dev, unsigned int q)
{
    queue_pending_set(&dev->pending[smp_processor_id()], q);
    raise_softirq(NET_SOFTIRQ);
}

/* All RAM is in the directmap: a fragment is reached through it. */
static void *map_frag(uint64_t addr)
{
    return __va(addr);
}

enum net_status net_transmit(struct net_dev *dev, struct net_tx *tx)
{
    return net_transmit_on(dev, smp_processor_id() % dev->nr_queues, tx);
}

enum net_status net_transmit_on(struct net_dev *dev, unsigned int q,
                                struct net_tx *tx)
{
    uint32_t len;
    enum net_status s = net_tx_check(dev, tx, &len);

    if ( s != NET_OK )
        return s;
    /*
     * A device without checksum offload sends what it is given: fill the
     * sum here (the field is the sender's, in its own packet).  GSO
     * always has the device's offload (net_tx_check()).
     */
    if ( (tx->off.flags & NET_OFF_CSUM_PARTIAL) &&
         !(dev->features & NET_F_CSUM_TX) )
    {
        net_tx_csum(tx, map_frag);
        tx->off.flags &= ~NET_OFF_CSUM_PARTIAL;
    }
    return dev->ops->transmit(dev, q % dev->nr_queues, tx);
}

void net_kick_on(struct net_dev *dev, unsigned int q)
{
    dev->ops->kick(dev, q % dev->nr_queues);
}

void net_rx_return(struct net_dev *dev, struct net_rx *rx)
{
    dev->ops->rx_return(dev, rx, false);
}

void net_rx_return_more(struct net_dev *dev, struct net_rx *rx)
{
    dev->ops->rx_return(dev, rx, true);
}
