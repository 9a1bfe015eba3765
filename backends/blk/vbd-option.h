/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One entry of the vbd= option (vbd-option.c, pure: the host tests
 * compile it): a device's name, a GPT partition, a vdev name, ":ro" or
 * ":cdrom".
 */
#ifndef BACKENDS_BLK_VBD_OPTION_H
#define BACKENDS_BLK_VBD_OPTION_H

#include "backends/blk/gpt.h"

struct vbd_option {
    size_t name_len;                /* the device's, at the entry's start */
    struct gpt_sel sel;             /* GPT_BY_NONE: the whole device */
    int vdev;                       /* VBD_VDEV(disk, partition), or -1 */
    bool ro;                        /* ":ro", or implied by ":cdrom" */
    bool cdrom;                     /* ":cdrom": xl's devtype=cdrom */
};

/*
 * [@p, @end): <device>[:vdev=<name>][:ro|:cdrom] or
 * [<device>:]<partition>[:vdev=<name>][:ro|:cdrom].  NULL and @o filled,
 * or why not.
 */
const char *vbd_parse_option(const char *p, const char *end,
                             struct vbd_option *o);

/*
 * A vdev: disk @d (0 for xvda) and partition @p (0: the whole disk), as
 * xl names them xvd<letter>[<partition>] (docs/misc/vbd-interface.txt);
 * disks xvda to xvdz.
 */
#define VBD_VDEV(d, p)          (((d) << 8) | (p))
#define VBD_VDEV_DISK(v)        ((unsigned int)(v) >> 8)
#define VBD_VDEV_PART(v)        ((unsigned int)(v) & 0xff)
#define VBD_MAX_DISKS           26

/* "vdev=xvd<a-z>[<1-15>]" in [@f, @f + @len): its vdev, or -1. */
int vbd_parse_vdev(const char *f, size_t len);

/*
 * The device id xl gives @vdev (the frontend's directory and
 * virtual-device): Xen's xvd form, (202 << 8) | (disk << 4) | partition,
 * for the first sixteen disks, past them the extended one,
 * (1 << 28) | (disk << 8) | partition, which Linux's blkfront reads
 * alike.
 */
unsigned int vbd_vdev_devid(unsigned int vdev);

/* Its name, "xvdq" or "xvda1", into @buf of @size bytes (8 will do). */
void vbd_vdev_name(char *buf, size_t size, unsigned int vdev);

#endif /* BACKENDS_BLK_VBD_OPTION_H */
