/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One entry of vbd= (docs/command-line.md): which device, which of its
 * GPT partitions (gpt.c's selectors), the name xl's vdev= would give it
 * (docs/misc/vbd-interface.txt: xvd<a-z> a disk, xvd<a-z><1-15> a
 * partition), read-only or not, a CD-ROM (read-only, as xl's
 * devtype=cdrom implies access=ro) or not.  Fields after the first are ':'
 * separated; a device's name has no '=', so a first field that is a
 * partition selector means no device was named.
 */
#include "backends/blk/vbd-option.h"

/* The next ':' in [@p, @end), or @end. */
static const char *field_end(const char *p, const char *end)
{
    for ( ; p < end; p++ )
        if ( *p == ':' )
            return p;
    return end;
}

/* Whether [@p, @p + @len) holds a '=' (no device's name does). */
static bool has_eq(const char *p, size_t len)
{
    while ( len-- )
        if ( *p++ == '=' )
            return true;
    return false;
}

int vbd_parse_vdev(const char *f, size_t len)
{
    unsigned int disk, part = 0;

    if ( len < 9 || len > 11 || strncmp(f, "vdev=xvd", 8) ||
         f[8] < 'a' || f[8] > 'a' + VBD_MAX_DISKS - 1 )
        return -1;
    disk = f[8] - 'a';
    if ( len >= 10 )
    {
        if ( f[9] < '1' || f[9] > '9' ||
             (len == 11 && (f[9] != '1' || f[10] < '0' || f[10] > '5')) )
            return -1;
        part = len == 11 ? 10 + f[10] - '0' : f[9] - '0';
    }
    return VBD_VDEV(disk, part);
}

unsigned int vbd_vdev_devid(unsigned int vdev)
{
    unsigned int disk = VBD_VDEV_DISK(vdev), part = VBD_VDEV_PART(vdev);

    if ( disk < 16 && part < 16 )
        return (202u << 8) | (disk << 4) | part;
    return (1u << 28) | (disk << 8) | part;
}

void vbd_vdev_name(char *buf, size_t size, unsigned int vdev)
{
    if ( VBD_VDEV_PART(vdev) )
        snprintf(buf, size, "xvd%c%u", 'a' + VBD_VDEV_DISK(vdev),
                 VBD_VDEV_PART(vdev));
    else
        snprintf(buf, size, "xvd%c", 'a' + VBD_VDEV_DISK(vdev));
}

const char *vbd_parse_option(const char *p, const char *end,
                             struct vbd_option *o)
{
    const char *f = field_end(p, end), *next;

    o->name_len = f - p;
    o->vdev = -1;
    o->ro = o->cdrom = false;
    if ( gpt_parse_sel(p, o->name_len, &o->sel) )
        o->name_len = 0;
    else if ( has_eq(p, o->name_len) )
        return "not a device's name or a partition selector";
    while ( f < end )
    {
        next = field_end(++f, end);
        if ( o->ro )
            return "\":ro\" or \":cdrom\" comes last";
        if ( next - f == 2 && !strncmp(f, "ro", 2) )
            o->ro = true;
        else if ( next - f == 5 && !strncmp(f, "cdrom", 5) )
            o->ro = o->cdrom = true;
        else if ( next - f >= 5 && !strncmp(f, "vdev=", 5) )
        {
            if ( o->vdev >= 0 || (o->vdev = vbd_parse_vdev(f, next - f)) < 0 )
                return "vdev= wants one xvd<a-z>[<1-15>]";
        }
        else if ( o->sel.by != GPT_BY_NONE ||
                  !gpt_parse_sel(f, next - f, &o->sel) )
            return "a field is not ro, cdrom, vdev= or one partition "
                   "selector";
        f = next;
    }
    if ( !o->name_len && o->sel.by == GPT_BY_NONE )
        return "no device or partition";
    return NULL;
}
