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
    int vdev;                       /* (disk << 4) | partition, or -1 */
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

/* "vdev=xvd<a-p>[<1-15>]" in [@f, @f + @len): its vdev, or -1. */
int vbd_parse_vdev(const char *f, size_t len);

#endif /* BACKENDS_BLK_VBD_OPTION_H */
