/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which of drivers/' block devices become the guest's disks (vbd=), and
 * their xenstore directories as libxl writes them for a domU's disk
 * (tools/libs/light/libxl_disk.c device_disk_add(), libxl_device.c):
 * backend/vbd/1/<devid> owned by domain 0 and readable by the guest,
 * device/vbd/<devid> the guest's and readable by domain 0.
 */
#include "backends/backends.h"
#include "backends/blk.h"
#include "backends/blk/blkback.h"
#include "backends/blk/vbd-option.h"
#include "backends/xenstore.h"
#include "pv/pv.h"
#include <xen/io/protocols.h>
#include <xen/io/xenbus.h>
#include "shim/console.h"
#include "shim/param.h"
#include "shim/shutdown.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/*
 * vbd=<disk>[,<disk>]... | none, each <disk>
 * <device>[:vdev=<name>][:ro|:cdrom] or
 * [<device>:]<partition>[:vdev=<name>][:ro|:cdrom]:
 * the block devices (by drivers/' names: virtio-blk0, nvme0n1, ...), or
 * one GPT partition of one (part=N, partuuid=GUID, partlabel=NAME,
 * parttype=GUID; with no device, the first device that has it), that
 * become xvda, xvdb, ... in that order, or the name vdev= gives
 * (xvda1: a bare file system the guest mounts as a partition, as xl's
 * vdev=xvda1), ":ro" read-only, ":cdrom" a read-only CD-ROM (xl's
 * devtype=cdrom).  Default: every device, in the order drivers/
 * registered them.
 */
static char opt_vbd[512];
string_param("vbd", opt_vbd);

struct vbd vbds[VBD_MAX];
unsigned int nr_vbds;

void vbd_nodes(const struct vbd *v, bool fe, const char *name,
               const char *value)
{
    char path[80];

    snprintf(path, sizeof(path), "%s/%s", fe ? v->fe : v->be, name);
    xs_shim_write(path, value);
}

void vbd_node(const struct vbd *v, bool fe, const char *name,
              const char *fmt, unsigned long val)
{
    char value[64];

    snprintf(value, sizeof(value), fmt, val);
    vbd_nodes(v, fe, name, value);
}

/*
 * The toolstack's part: both directories, states Initialising; a CD-ROM
 * removable, as xl makes every devtype=cdrom disk; the frontend's
 * protocol the guest's own, as libxl writes it for a PV guest (blkfront
 * before Linux 2.6.26 wrote none; later ones overwrite it).
 */
static void vbd_layout(struct vbd *v)
{
    const char *type = v->cdrom ? "cdrom" : "disk";
    struct pv_guest_info g;

    pv_guest_info(&g);
    xs_shim_mkdir(v->be, 0, 1);
    vbd_nodes(v, false, "frontend", v->fe);
    vbd_nodes(v, false, "frontend-id", "1");
    vbd_nodes(v, false, "online", "1");
    vbd_nodes(v, false, "removable", v->cdrom ? "1" : "0");
    vbd_nodes(v, false, "bootable", "1");
    vbd_nodes(v, false, "dev", v->name);
    vbd_nodes(v, false, "type", "phy");
    vbd_nodes(v, false, "mode", v->ro ? "r" : "w");
    vbd_nodes(v, false, "device-type", type);
    vbd_nodes(v, false, "discard-enable", v->ro ? "0" : "1");
    vbd_nodes(v, false, "params", v->dev->name);
    vbd_nodes(v, false, "hotplug-status", "connected");
    vbd_nodes(v, false, "state", "1");

    xs_shim_mkdir(v->fe, 1, 0);
    vbd_nodes(v, true, "backend", v->be);
    vbd_nodes(v, true, "backend-id", "0");
    vbd_node(v, true, "virtual-device", "%lu", v->devid);
    vbd_nodes(v, true, "device-type", type);
    vbd_nodes(v, true, "protocol", g.compat ? XEN_IO_PROTO_ABI_X86_32
                                        : XEN_IO_PROTO_ABI_X86_64);
    vbd_nodes(v, true, "state", "1");
}

/*
 * xen_blkbk_discard(): with discard-enable (libxl's default for a
 * writable disk) and a device that discards, its granularity in bytes,
 * alignment 0 and no secure erase; feature-discard 0 otherwise.
 */
static void vbd_discard(struct vbd *v)
{
    const struct blk_dev *d = v->dev;

    if ( v->ro )
        return;                         /* discard-enable 0 */
    /* Its pieces are whole logical blocks: at least one of them. */
    v->discard = (d->features & BLK_F_DISCARD) &&
                 d->max_discard_sectors >= v->lbs;
    if ( v->discard )
    {
        unsigned long gran = MAX(d->discard_granularity * BLK_SECTOR_SIZE,
                                 d->sector_size);
        unsigned long off = (v->start * BLK_SECTOR_SIZE) % gran;

        /*
         * Where the device's granules start in the disk, as Linux's
         * queue_limit_discard_alignment() says it for a partition.
         */
        vbd_node(v, false, "discard-granularity", "%lu", gran);
        vbd_node(v, false, "discard-alignment", "%lu", (gran - off) % gran);
        vbd_node(v, false, "discard-secure", "%lu", 0);
    }
    vbd_node(v, false, "feature-discard", "%lu", v->discard);
}

/*
 * blkback's probe and connect(): what the disk is and offers, then
 * InitWait.  No feature-persistent: docs/architecture.md says why.
 */
static void vbd_probe(struct vbd *v)
{
    const struct blk_dev *d = v->dev;

    vbd_node(v, false, "feature-max-indirect-segments", "%lu", VBD_SEGS_MAX);
    vbd_node(v, false, "multi-queue-max-queues", "%lu",
         MIN(d->nr_queues, VBD_MAX_QUEUES));
    vbd_node(v, false, "max-ring-page-order", "%lu", BLKIF_RING_ORDER_MAX);
    vbd_node(v, false, "sectors", "%lu", v->nr_sectors);
    vbd_node(v, false, "sector-size", "%lu", d->sector_size);
    vbd_node(v, false, "physical-sector-size", "%lu", d->phys_sector_size);
    /*
     * As Linux's xen_vbd_create(): a CD-ROM by the device-type the
     * toolstack wrote; removable only for media that can go, which the
     * shim's devices can't.
     */
    vbd_node(v, false, "info", "%lu", (v->ro ? VDISK_READONLY : 0) |
                                  (v->cdrom ? VDISK_CDROM : 0));
    vbd_node(v, false, "feature-flush-cache", "%lu",
         !!(d->features & BLK_F_FLUSH));
    vbd_node(v, false, "feature-barrier", "%lu", !!(d->features & BLK_F_FLUSH));
    vbd_discard(v);
    vbd_node(v, false, "state", "%lu", XenbusStateInitWait);
    v->be_state = XenbusStateInitWait;
}

/*
 * @dev, or its partition @p (NULL: the whole device), as the next disk,
 * named @vdev (VBD_VDEV(disk, partition), as xl's
 * xvd<disk><partition>), or -1: the slot's letter.
 */
static bool add_vbd(struct blk_dev *dev, bool ro, bool cdrom,
                    const struct gpt_part *p, int vdev)
{
    unsigned long nr = (VBD_REQS * sizeof(struct vbd_req) + PAGE_SIZE - 1) >>
                       PAGE_SHIFT, pfn;
    unsigned int i, slot;
    struct vbd *v;
    struct vbd_req *req = NULL;
    const char *what;

    BUILD_BUG_ON(VBD_MAX > VBD_MAX_DISKS);
    /* A removed disk's slot first, with its requests' frames. */
    for ( slot = 0; slot < nr_vbds && !vbds[slot].gone; slot++ )
        continue;
    if ( slot == VBD_MAX )
    {
        printk(XENLOG_WARNING "blkback: %s: no room, only %u disks\n",
               dev->name, VBD_MAX);
        return false;
    }
    v = &vbds[slot];
    if ( slot < nr_vbds )
        req = v->req;
    else if ( (pfn = frames_alloc(nr, 0, 0)) != INVALID_PFN )
        req = __va(pfn << PAGE_SHIFT);
    if ( !req )
    {
        printk(XENLOG_WARNING "blkback: %s: no memory for its requests\n",
               dev->name);
        return false;
    }
    /*
     * Another CPU's softirq may still look at a removed disk's slot
     * (blkback.c: it finds no ring there): its locks stay locks.
     */
    BUILD_BUG_ON(offsetof(struct vbd, devid) !=
                 offsetof(struct vbd, ring_lock) + sizeof(v->ring_lock));
    if ( slot == nr_vbds )
    {
        spin_lock_init(&v->lock, LOCK_RANK_VBD);
        for ( i = 0; i < VBD_MAX_QUEUES; i++ )
            spin_lock_init(&v->ring_lock[i], LOCK_RANK_VBD_RING);
    }
    spin_lock_irq_on_wait(&v->lock);
    memset(&v->devid, 0, sizeof(*v) - offsetof(struct vbd, devid));
    spin_unlock(&v->lock);
    v->req = req;
    memset(v->req, 0, nr << PAGE_SHIFT);
    for ( i = 0; i < VBD_MAX_QUEUES; i++ )
    {
        v->rings[i].vbd = v;
        v->rings[i].index = i;
    }
    v->lbs = dev->sector_size / BLK_SECTOR_SIZE;
    if ( vdev < 0 )
        vdev = VBD_VDEV(slot, 0);
    v->devid = vbd_vdev_devid(vdev);
    vbd_vdev_name(v->name, sizeof(v->name), vdev);
    /*
     * In the lock profile by the disk's name: a reused slot's renamed,
     * its rings past the last disk's new (nothing takes a ring's lock
     * past nr_rings, which the memset made 0).
     */
    lock_profile_name(&v->lock, pv_lock_profile_head(), "%s->lock", v->name);
    for ( i = 0; i < MIN(dev->nr_queues, VBD_MAX_QUEUES); i++ )
        lock_profile_name(&v->ring_lock[i], pv_lock_profile_head(),
                          "%s->ring_lock[%u]", v->name, i);
    snprintf(v->be, sizeof(v->be), "/local/domain/0/backend/vbd/1/%u",
             v->devid);
    snprintf(v->fe, sizeof(v->fe), "/local/domain/1/device/vbd/%u",
             v->devid);
    v->dev = dev;
    v->start = p ? p->first_lba * v->lbs : 0;
    v->nr_sectors = p ? p->nr_lbas * v->lbs : dev->nr_sectors;
    v->part = p ? p->number : 0;
    v->ro = ro || cdrom || (dev->features & BLK_F_RO);
    v->cdrom = cdrom;
    if ( slot == nr_vbds )
        nr_vbds++;
    what = cdrom ? ", CD-ROM" : v->ro ? ", read-only" : "";
    if ( p )
        printk(XENLOG_INFO "blkback: %s (%u) is %s partition %u (sectors "
               "%lu-%lu), %lu sectors%s\n", v->name, v->devid, dev->name,
               v->part, (unsigned long)v->start,
               (unsigned long)(v->start + v->nr_sectors - 1),
               (unsigned long)v->nr_sectors, what);
    else
        printk(XENLOG_INFO "blkback: %s (%u) is %s, %lu sectors%s\n",
               v->name, v->devid, dev->name, (unsigned long)v->nr_sectors,
               what);
    return true;
}

static struct blk_dev *find_dev(const char *name, size_t len)
{
    unsigned int i;
    struct blk_dev *d;

    for ( i = 0; (d = blk_get(i)) != NULL; i++ )
        if ( strlen(d->name) == len && !strncmp(d->name, name, len) )
            return d;
    return NULL;
}

/*
 * The entry's device, or the first with the partition when it names
 * none, and the partition (@p, if @sel names one): false, logged, if
 * there is none.
 */
static struct blk_dev *entry_dev(const char *name, size_t len,
                                 const struct gpt_sel *sel,
                                 struct gpt_part *p)
{
    struct blk_dev *d;
    unsigned int i;

    if ( len )
    {
        if ( !(d = find_dev(name, len)) )
            printk(XENLOG_WARNING "blkback: vbd=: no block device "
                   "\"%.*s\"\n", (int)len, name);
        else if ( sel->by != GPT_BY_NONE && !vbd_find_part(d, sel, p) )
        {
            printk(XENLOG_WARNING "blkback: vbd=: %s has no such partition\n",
                   d->name);
            d = NULL;
        }
        return d;
    }
    for ( i = 0; (d = blk_get(i)) != NULL; i++ )
        if ( vbd_find_part(d, sel, p) )
            return d;
    printk(XENLOG_WARNING "blkback: vbd=: no device has the partition\n");
    return NULL;
}

/* vbd=: each comma-separated entry in turn. */
static void choose_devices(void)
{
    const char *p = opt_vbd, *end;
    struct blk_dev *d;
    struct vbd_option o;
    struct gpt_part part;
    const char *why;
    unsigned int i;
    int vdev;

    if ( !opt_vbd[0] )
    {
        for ( i = 0; (d = blk_get(i)) != NULL; i++ )
            if ( !add_vbd(d, false, false, NULL, -1) )
                break;
        return;
    }
    if ( !strcmp(opt_vbd, "none") )
        return;
    for ( ; *p; p = *end ? end + 1 : end )
    {
        end = strchr(p, ',');
        if ( !end )
            end = p + strlen(p);
        if ( (why = vbd_parse_option(p, end, &o)) )
        {
            printk(XENLOG_WARNING "blkback: vbd=%.*s: %s\n",
                   (int)(end - p), p, why);
            continue;
        }
        if ( !(d = entry_dev(p, o.name_len, &o.sel, &part)) )
            continue;
        vdev = o.vdev >= 0 ? o.vdev : (int)VBD_VDEV(nr_vbds, 0);
        for ( i = 0; i < nr_vbds && vbds[i].devid != vbd_vdev_devid(vdev);
              i++ )
            continue;
        if ( i < nr_vbds )
        {
            printk(XENLOG_WARNING "blkback: vbd=%.*s: %s is taken\n",
                   (int)(end - p), p, vbds[i].name);
            continue;
        }
        if ( !add_vbd(d, o.ro, o.cdrom,
                      o.sel.by != GPT_BY_NONE ? &part : NULL, vdev) )
            break;
    }
}

/*
 * A static handler: the image is PIE.  It may run from inside the
 * shim's own xenstore write, which a vbd makes under its lock: it only
 * marks the vbd, and the backend's softirq looks at it.
 */
static void frontend_watch(const char *path, void *data)
{
    struct vbd *v = data;

    __atomic_store_n(&v->recheck, true, __ATOMIC_RELEASE);
    cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

/*
 * A static handler: the image is PIE.  From the device's interrupt: it
 * only marks the device's disks, and the backend's softirq tells their
 * frontends.
 */
static void resize_hook(struct blk_dev *dev)
{
    unsigned int i;

    for ( i = 0; i < nr_vbds; i++ )
        if ( vbds[i].dev == dev && !vbds[i].gone )
            __atomic_store_n(&vbds[i].resized, true, __ATOMIC_RELEASE);
    cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

/* A static handler: the image is PIE. */
static void drain_hook(void)
{
    blkback_drain();
}

/* @v in xenstore for its frontend to find, and its frontend watched. */
static void vbd_start(struct vbd *v)
{
    vbd_layout(v);
    vbd_probe(v);
    backend_watch_frontend("blkback", v->name, v->fe, frontend_watch, v);
}

static void hooks_once(void)
{
    static bool done;

    if ( done )
        return;
    done = true;
    shutdown_hook_register(drain_hook);
    blk_set_resize_hook(resize_hook);
}

/*
 * A disk the host added to the running VM: the first xvd letter no vbd
 * has, the whole device, as `xl block-attach` adds one to a running PV
 * guest (its frontend finds the new directory under device/vbd).  From
 * CPU 0's hotplug softirq, as the backend's own work runs: nothing else
 * looks at vbds[] meanwhile but completions of other vbds.
 */
static void add_hook(struct blk_dev *dev)
{
    unsigned int letter, i;

    if ( !strcmp(opt_vbd, "none") )
    {
        printk("blkback: %s added: not given to the guest (vbd=none)\n",
               dev->name);
        return;
    }
    for ( letter = 0; letter < VBD_MAX; letter++ )
    {
        for ( i = 0; i < nr_vbds; i++ )
            if ( !vbds[i].gone &&
                 vbds[i].devid == vbd_vdev_devid(VBD_VDEV(letter, 0)) )
                break;
        if ( i == nr_vbds )
            break;
    }
    if ( letter == VBD_MAX ||
         !add_vbd(dev, false, false, NULL, VBD_VDEV(letter, 0)) )
    {
        printk(XENLOG_WARNING "blkback: %s added: no room for it\n",
               dev->name);
        return;
    }
    for ( i = 0; vbds[i].dev != dev || vbds[i].gone; i++ )
        continue;
    vbd_start(&vbds[i]);
    hooks_once();
    printk("blkback: %s added by the host: the guest's %s\n", dev->name,
           vbds[i].name);
}

/*
 * The host takes @dev back, as `xl block-detach`: each disk on it to
 * Closing (its frontend closes), then, from the backend's softirq, gone
 * (vbd_remove_finish()).  A device no
 * disk is on goes back at once.
 */
static void remove_hook(struct blk_dev *dev)
{
    unsigned int i;
    bool any = false;

    for ( i = 0; i < nr_vbds; i++ )
    {
        struct vbd *v = &vbds[i];

        if ( v->gone || v->dev != dev )
            continue;
        spin_lock_irq_on_wait(&v->lock);
        vbd_remove_start(v);
        spin_unlock(&v->lock);
        backend_remove_wake(v->remove_by);
        printk("blkback: %s: the host takes %s back: closing\n", v->name,
               dev->name);
        any = true;
    }
    if ( !any )
        blk_release(dev);
    else
        cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

void vbd_remove_finish(struct vbd *v)
{
    struct blk_dev *dev = v->dev;
    unsigned int i;

    backend_forget_frontend(v->fe, v->be, frontend_watch, v);
    v->ro = true;                       /* the VM's end flushes it no more */
    v->gone = true;
    printk("blkback: %s: removed\n", v->name);
    for ( i = 0; i < nr_vbds; i++ )
        if ( !vbds[i].gone && vbds[i].dev == dev )
            return;                     /* another partition is still on */
    blk_release(dev);
}

void blkback_init(void)
{
    unsigned int i;

    choose_devices();
    for ( i = 0; i < nr_vbds; i++ )
        vbd_start(&vbds[i]);
    if ( nr_vbds )
        hooks_once();
    blk_set_add_hook(add_hook);
    blk_set_remove_hook(remove_hook);
}
