/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which of drivers/' block devices become the guest's disks (vbd=), and
 * their xenstore directories as libxl writes them for a domU's disk
 * (tools/libs/light/libxl_disk.c device_disk_add(), libxl_device.c):
 * backend/vbd/1/<devid> owned by domain 0 and readable by the guest,
 * device/vbd/<devid> the guest's and readable by domain 0.
 */
#include "backends/blk.h"
#include "backends/blk/blkback.h"
#include "backends/xenstore.h"
#include <xen/io/xenbus.h>
#include "shim/console.h"
#include "shim/param.h"
#include "shim/shutdown.h"
#include "shim/softirq.h"

/*
 * vbd=<device>[:ro][,<device>[:ro]]... | none: the block devices (by
 * drivers/' names: virtio-blk0, nvme0n1, ...) that become xvda, xvdb, ...
 * in that order, ":ro" read-only.  Default: every device, in the order
 * drivers/ registered them.
 */
static char opt_vbd[128];
string_param("vbd", opt_vbd);

struct vbd vbds[VBD_MAX];
unsigned int nr_vbds;

static void node(const struct vbd *v, bool fe, const char *name,
                 const char *fmt, unsigned long val)
{
    char path[80], value[64];

    snprintf(path, sizeof(path), "%s/%s", fe ? v->fe : v->be, name);
    snprintf(value, sizeof(value), fmt, val);
    xs_shim_write(path, value);
}

static void nodes(const struct vbd *v, bool fe, const char *name,
                  const char *value)
{
    char path[80];

    snprintf(path, sizeof(path), "%s/%s", fe ? v->fe : v->be, name);
    xs_shim_write(path, value);
}

/* The toolstack's part: both directories, states Initialising. */
static void vbd_layout(struct vbd *v)
{
    xs_shim_mkdir(v->be, 0, 1);
    nodes(v, false, "frontend", v->fe);
    nodes(v, false, "frontend-id", "1");
    nodes(v, false, "online", "1");
    nodes(v, false, "removable", "0");
    nodes(v, false, "bootable", "1");
    nodes(v, false, "dev", v->name);
    nodes(v, false, "type", "phy");
    nodes(v, false, "mode", v->ro ? "r" : "w");
    nodes(v, false, "device-type", "disk");
    nodes(v, false, "discard-enable", v->ro ? "0" : "1");
    nodes(v, false, "params", v->dev->name);
    nodes(v, false, "hotplug-status", "connected");
    nodes(v, false, "state", "1");

    xs_shim_mkdir(v->fe, 1, 0);
    nodes(v, true, "backend", v->be);
    nodes(v, true, "backend-id", "0");
    node(v, true, "virtual-device", "%lu", v->devid);
    nodes(v, true, "device-type", "disk");
    nodes(v, true, "state", "1");
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
        node(v, false, "discard-granularity", "%lu",
             MAX(d->discard_granularity * BLK_SECTOR_SIZE, d->sector_size));
        node(v, false, "discard-alignment", "%lu", 0);
        node(v, false, "discard-secure", "%lu", 0);
    }
    node(v, false, "feature-discard", "%lu", v->discard);
}

/*
 * blkback's probe and connect(): what the disk is and offers, then
 * InitWait.  No feature-persistent: docs/architecture.md says why.
 */
static void vbd_probe(struct vbd *v)
{
    const struct blk_dev *d = v->dev;

    node(v, false, "feature-max-indirect-segments", "%lu", VBD_SEGS_MAX);
    node(v, false, "multi-queue-max-queues", "%lu",
         MIN(d->nr_queues, VBD_MAX_QUEUES));
    node(v, false, "max-ring-page-order", "%lu", BLKIF_RING_ORDER_MAX);
    node(v, false, "sectors", "%lu", d->nr_sectors);
    node(v, false, "sector-size", "%lu", d->sector_size);
    node(v, false, "physical-sector-size", "%lu", d->phys_sector_size);
    node(v, false, "info", "%lu", v->ro ? VDISK_READONLY : 0);
    node(v, false, "feature-flush-cache", "%lu",
         !!(d->features & BLK_F_FLUSH));
    node(v, false, "feature-barrier", "%lu", !!(d->features & BLK_F_FLUSH));
    vbd_discard(v);
    node(v, false, "state", "%lu", XenbusStateInitWait);
    v->be_state = XenbusStateInitWait;
}

static bool add_vbd(struct blk_dev *dev, bool ro)
{
    unsigned long nr = (VBD_REQS * sizeof(struct vbd_req) + PAGE_SIZE - 1) >>
                       PAGE_SHIFT, pfn;
    unsigned int i;
    struct vbd *v;

    if ( nr_vbds == VBD_MAX )
    {
        printk(XENLOG_WARNING "blkback: %s: no room, only %u disks\n",
               dev->name, VBD_MAX);
        return false;
    }
    if ( (pfn = frames_alloc(nr, 0, 0)) == INVALID_PFN )
    {
        printk(XENLOG_WARNING "blkback: %s: no memory for its requests\n",
               dev->name);
        return false;
    }
    v = &vbds[nr_vbds];
    spin_lock_init(&v->lock, LOCK_RANK_VBD);
    v->req = __va(pfn << PAGE_SHIFT);
    memset(v->req, 0, nr << PAGE_SHIFT);
    for ( i = 0; i < VBD_MAX_QUEUES; i++ )
    {
        v->rings[i].vbd = v;
        v->rings[i].index = i;
    }
    v->lbs = dev->sector_size / BLK_SECTOR_SIZE;
    v->devid = (202 << 8) | (nr_vbds << 4);
    snprintf(v->name, sizeof(v->name), "xvd%c", 'a' + nr_vbds);
    snprintf(v->be, sizeof(v->be), "/local/domain/0/backend/vbd/1/%u",
             v->devid);
    snprintf(v->fe, sizeof(v->fe), "/local/domain/1/device/vbd/%u",
             v->devid);
    v->dev = dev;
    v->ro = ro || (dev->features & BLK_F_RO);
    nr_vbds++;
    printk(XENLOG_INFO "blkback: %s (%u) is %s, %lu sectors%s\n", v->name,
           v->devid, dev->name, (unsigned long)dev->nr_sectors,
           v->ro ? ", read-only" : "");
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

/* vbd=: each comma-separated entry in turn. */
static void choose_devices(void)
{
    const char *p = opt_vbd, *end, *colon;
    struct blk_dev *d;
    unsigned int i;

    if ( !opt_vbd[0] )
    {
        for ( i = 0; (d = blk_get(i)) != NULL; i++ )
            if ( !add_vbd(d, false) )
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
        colon = strchr(p, ':');
        if ( colon && colon >= end )
            colon = NULL;
        if ( colon && (end - colon != 3 || strncmp(colon, ":ro", 3)) )
        {
            printk(XENLOG_WARNING "blkback: vbd=%.*s: only \":ro\" may "
                   "follow a name\n", (int)(end - p), p);
            continue;
        }
        if ( !(d = find_dev(p, (colon ? colon : end) - p)) )
        {
            printk(XENLOG_WARNING "blkback: vbd=: no block device \"%.*s\"\n",
                   (int)((colon ? colon : end) - p), p);
            continue;
        }
        if ( !add_vbd(d, colon) )
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

/* A static handler: the image is PIE. */
static void drain_hook(void)
{
    blkback_drain();
}

void blkback_init(void)
{
    unsigned int i;
    char path[64];

    choose_devices();
    for ( i = 0; i < nr_vbds; i++ )
    {
        vbd_layout(&vbds[i]);
        vbd_probe(&vbds[i]);
        snprintf(path, sizeof(path), "%s/state", vbds[i].fe);
        xs_shim_watch(path, frontend_watch, &vbds[i]);
    }
    if ( nr_vbds )
        shutdown_hook_register(drain_hook);
}
