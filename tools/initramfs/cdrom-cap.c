/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cdrom-cap DEV: whether Linux takes DEV for a CD-ROM, by the ioctl that
 * asks (CDROM_GET_CAPABILITY, which xen-blkfront answers from the
 * backend's VDISK_CDROM; udev's cdrom_id starts with it).  Prints
 * "cdrom" (status 0) or "not a cdrom" (status 1).  Built -static by
 * tools/make-initramfs; the busybox in the test initramfs has no such
 * applet.
 */
#include <fcntl.h>
#include <linux/cdrom.h>
#include <stdio.h>
#include <sys/ioctl.h>

int main(int argc, char **argv)
{
    int fd;

    if ( argc != 2 )
    {
        fprintf(stderr, "usage: cdrom-cap DEV\n");
        return 2;
    }
    if ( (fd = open(argv[1], O_RDONLY | O_NONBLOCK)) < 0 )
    {
        perror(argv[1]);
        return 2;
    }
    if ( ioctl(fd, CDROM_GET_CAPABILITY, 0) < 0 )
    {
        printf("not a cdrom\n");
        return 1;
    }
    printf("cdrom\n");
    return 0;
}
