/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which of drivers/' network devices become the guest's vifs (vif=), and
 * their xenstore directories as libxl writes them for a domU's NIC
 * (tools/libs/light/libxl_nic.c): backend/vif/1/<devid> owned by domain
 * 0 and readable by the guest, device/vif/<devid> the guest's and
 * readable by domain 0; then what Linux's netback_probe() offers.
 */
#include "backends/backends.h"
#include "backends/net.h"
#include "backends/net/netback.h"
#include "backends/xenstore.h"
#include "drivers/dma.h"
#include <xen/io/xenbus.h>
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/param.h"
#include "shim/softirq.h"

/*
 * vif=<device>[,<device>]... | none: the network devices (by drivers/'
 * names: virtio-net0, ...) that become the guest's vif 0, 1, ... in that
 * order.  Default: every device, in the order drivers/ registered them.
 */
static char opt_vif[128];
string_param("vif", opt_vif);

struct vif *vifs[VIF_MAX];
unsigned int nr_vifs;

/* The toolstack's part: both directories, states Initialising. */
static void vif_layout(struct vif *v)
{
    const uint8_t *m = v->dev->mac;
    char mac[18];

    snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
             m[0], m[1], m[2], m[3], m[4], m[5]);
    xs_shim_mkdir(v->be, 0, 1);
    xs_shim_writef(v->be, "frontend", "%s", v->fe);
    xs_shim_writef(v->be, "frontend-id", "1");
    xs_shim_writef(v->be, "online", "1");
    xs_shim_writef(v->be, "state", "1");
    xs_shim_writef(v->be, "script", "/etc/xen/scripts/vif-bridge");
    xs_shim_writef(v->be, "mac", "%s", mac);
    xs_shim_writef(v->be, "bridge", "xenbr0");
    xs_shim_writef(v->be, "handle", "%u", v->devid);
    xs_shim_writef(v->be, "type", "vif");
    xs_shim_writef(v->be, "mtu", "%u", v->dev->mtu);
    xs_shim_writef(v->be, "hotplug-status", "connected");

    xs_shim_mkdir(v->fe, 1, 0);
    xs_shim_writef(v->fe, "backend", "%s", v->be);
    xs_shim_writef(v->fe, "backend-id", "0");
    xs_shim_writef(v->fe, "state", "1");
    xs_shim_writef(v->fe, "handle", "%u", v->devid);
    xs_shim_writef(v->fe, "mac", "%s", mac);
}

/*
 * netback_probe(): what the backend offers, then InitWait.  GSO and
 * checksum offload always: net.c cuts a GSO packet for a device without
 * TSO and fills a sum the device can't, as a Linux dom0's stack does.
 */
static void vif_probe(struct vif *v)
{
    xs_shim_writef(v->be, "feature-sg", "1");
    xs_shim_writef(v->be, "feature-gso-tcpv4", "1");
    xs_shim_writef(v->be, "feature-gso-tcpv6", "1");
    xs_shim_writef(v->be, "feature-ipv6-csum-offload", "1");
    xs_shim_writef(v->be, "feature-rx-copy", "1");
    xs_shim_writef(v->be, "feature-rx-flip", "0");
    xs_shim_writef(v->be, "feature-split-event-channels", "1");
    xs_shim_writef(v->be, "multi-queue-max-queues", "%u", v->max_queues);
    xs_shim_writef(v->be, "state", "%u", XenbusStateInitWait);
    v->be_state = XenbusStateInitWait;
}

static bool add_vif(struct net_dev *dev)
{
    struct pv_guest_info g;
    struct vif *v;
    uint8_t *hdr;
    unsigned int i, j, slot;

    /* A removed vif's number first, with its state's frames. */
    for ( slot = 0; slot < nr_vifs && !vifs[slot]->gone; slot++ )
        continue;
    if ( slot == VIF_MAX )
    {
        printk(XENLOG_WARNING "netback: %s: no room, only %u vifs\n",
               dev->name, VIF_MAX);
        return false;
    }
    if ( slot < nr_vifs )
    {
        v = vifs[slot];
        hdr = v->q[0].req[0].hdr;
        /* The backend's own: no NIC's driver gave these frames back. */
        ASSERT(!frame_is_free(__pa(v) >> PAGE_SHIFT) &&
               !frame_is_free(__pa(hdr) >> PAGE_SHIFT));
        /*
         * Another CPU's softirq may still look at a removed vif
         * (netback.c: it finds no queue there): its locks stay locks.
         */
        BUILD_BUG_ON(offsetof(struct vif, devid) !=
                     offsetof(struct vif, queue_lock) +
                     sizeof(v->queue_lock));
        spin_lock_irq_on_wait(&v->lock);
        memset(&v->devid, 0, sizeof(*v) - offsetof(struct vif, devid));
        spin_unlock(&v->lock);
    }
    /* The queues' header copies, which the device reads. */
    else if ( !(hdr = dma_alloc(VIF_MAX_QUEUES * NB_TX_INFLIGHT *
                                NB_HDR_MAX)) )
    {
        printk(XENLOG_WARNING "netback: %s: no memory for its buffers\n",
               dev->name);
        return false;
    }
    /* Its state (about 136 KiB) in frames of its own, as NICs come. */
    else if ( !(v = dma_alloc(sizeof(*v))) )
    {
        printk(XENLOG_WARNING "netback: %s: no memory for its state\n",
               dev->name);
        return false;
    }
    pv_guest_info(&g);
    if ( slot == nr_vifs )
    {
        spin_lock_init(&v->lock, LOCK_RANK_VIF);
        for ( i = 0; i < VIF_MAX_QUEUES; i++ )
            spin_lock_init(&v->queue_lock[i], LOCK_RANK_VIF_QUEUE);
    }
    v->devid = slot;
    snprintf(v->name, sizeof(v->name), "vif1.%u", v->devid);
    snprintf(v->be, sizeof(v->be), "/local/domain/0/backend/vif/1/%u",
             v->devid);
    snprintf(v->fe, sizeof(v->fe), "/local/domain/1/device/vif/%u",
             v->devid);
    v->dev = dev;
    v->max_queues = MIN(MAX(g.max_vcpus, 1u), VIF_MAX_QUEUES);
    /* In the lock profile (a reused slot's, the same names again). */
    lock_profile_name(&v->lock, pv_lock_profile_head(), "%s->lock", v->name);
    for ( i = 0; i < v->max_queues; i++ )
        lock_profile_name(&v->queue_lock[i], pv_lock_profile_head(),
                          "%s->queue_lock[%u]", v->name, i);
    for ( i = 0; i < VIF_MAX_QUEUES; i++ )
    {
        v->q[i].vif = v;
        v->q[i].index = i;
        for ( j = 0; j < NB_TX_INFLIGHT; j++ )
            v->q[i].req[j].hdr = hdr + (i * NB_TX_INFLIGHT + j) * NB_HDR_MAX;
    }
    vifs[slot] = v;
    if ( slot == nr_vifs )
        nr_vifs++;
    printk(XENLOG_INFO "netback: %s is %s, MAC %02x:%02x:%02x:%02x:%02x:%02x, "
           "up to %u queue%s%s%s\n", v->name, dev->name, dev->mac[0],
           dev->mac[1], dev->mac[2], dev->mac[3], dev->mac[4], dev->mac[5],
           v->max_queues, v->max_queues == 1 ? "" : "s",
           dev->features & NET_F_CSUM_TX ? ", checksum offload" : "",
           dev->features & (NET_F_TSO4 | NET_F_TSO6) ? ", TSO" : "");
    return true;
}

static struct net_dev *find_dev(const char *name, size_t len)
{
    unsigned int i;
    struct net_dev *d;

    for ( i = 0; (d = net_get(i)) != NULL; i++ )
        if ( strlen(d->name) == len && !strncmp(d->name, name, len) )
            return d;
    return NULL;
}

/* vif=: each comma-separated name in turn. */
static void choose_devices(void)
{
    const char *p = opt_vif, *end;
    struct net_dev *d;
    unsigned int i;

    if ( !opt_vif[0] )
    {
        for ( i = 0; (d = net_get(i)) != NULL; i++ )
            if ( !add_vif(d) )
                break;
        return;
    }
    if ( !strcmp(opt_vif, "none") )
        return;
    for ( ; *p; p = *end ? end + 1 : end )
    {
        end = strchr(p, ',');
        if ( !end )
            end = p + strlen(p);
        if ( !(d = find_dev(p, end - p)) )
        {
            printk(XENLOG_WARNING "netback: vif=: no network device "
                   "\"%.*s\"\n", (int)(end - p), p);
            continue;
        }
        for ( i = 0; i < nr_vifs && vifs[i]->dev != d; i++ )
            ;
        if ( i < nr_vifs )
        {
            printk(XENLOG_WARNING "netback: vif=: %s named twice\n", d->name);
            continue;
        }
        if ( !add_vif(d) )
            break;
    }
}

/* A static handler: the image is PIE.  The handshake runs in the softirq. */
static void frontend_watch(const char *path, void *data)
{
    struct vif *v = data;

    v->recheck = true;
    cpu_raise_softirq(0, NETBACK_SOFTIRQ);
}

static void receive(struct net_dev *dev, struct net_rx *rx, void *data)
{
    nb_receive(dev, rx, data);
}

/* @v in xenstore for its frontend to find, its frontend watched. */
static void vif_start(struct vif *v)
{
    vif_layout(v);
    vif_probe(v);
    backend_watch_frontend("netback", v->name, v->fe, frontend_watch, v);
    net_set_receive(v->dev, receive, v);
}

/*
 * A NIC the host added to the running VM: the next vif, as `xl
 * network-attach` adds one to a running PV guest.  From CPU 0's hotplug
 * softirq, as the backend's own work runs.
 */
static void add_hook(struct net_dev *dev)
{
    if ( !strcmp(opt_vif, "none") )
    {
        printk("netback: %s added: not given to the guest (vif=none)\n",
               dev->name);
        return;
    }
    unsigned int i;

    if ( !add_vif(dev) )
        return;
    for ( i = 0; vifs[i]->dev != dev || vifs[i]->gone; i++ )
        continue;
    vif_start(vifs[i]);
    printk("netback: %s added by the host: the guest's %s\n", dev->name,
           vifs[i]->name);
}

/*
 * The host takes @dev back, as `xl network-detach`: its vif to Closing
 * (netfront closes, or is closed anyway after backend-remove-timeout),
 * then, from the backend's softirq, gone (vif_remove_finish()).  A NIC
 * no vif is on goes back at once.
 */
static void remove_hook(struct net_dev *dev)
{
    unsigned int i;

    for ( i = 0; i < nr_vifs; i++ )
        if ( !vifs[i]->gone && vifs[i]->dev == dev )
            break;
    if ( i == nr_vifs )
    {
        net_release(dev);
        return;
    }
    spin_lock_irq_on_wait(&vifs[i]->lock);
    vif_remove_start(vifs[i]);
    spin_unlock(&vifs[i]->lock);
    backend_remove_wake(vifs[i]->remove_by);
    printk("netback: %s: the host takes %s back: closing\n", vifs[i]->name,
           dev->name);
    cpu_raise_softirq(0, NETBACK_SOFTIRQ);
}

void vif_remove_finish(struct vif *v)
{
    backend_forget_frontend(v->fe, v->be, frontend_watch, v);
    v->gone = true;
    printk("netback: %s: removed\n", v->name);
    net_release(v->dev);
}

void netback_init(void)
{
    unsigned int i;

    choose_devices();
    for ( i = 0; i < nr_vifs; i++ )
        vif_start(vifs[i]);
    net_set_add_hook(add_hook);
    net_set_remove_hook(remove_hook);
}
