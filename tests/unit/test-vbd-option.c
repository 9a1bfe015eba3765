/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of vbd='s entries (backends/blk/vbd-option.c): a device
 * alone, read-only, a CD-ROM, with a partition, a partition with no device, the
 * vdev= names xl takes (xvda .. xvdz, a partition 1-15) and the device ids
 * and names they give (xl's, the extended form past xvdp), and what is
 * refused: unknown fields, two selectors or vdevs, ":ro" or ":cdrom" not
 * last or both, empty
 * entries, malformed names.
 */
#include "tests/unit/unit.h"
#include "../../shim/lib/crc32.c"
#include "../../backends/blk/gpt.c"
#include "../../backends/blk/vbd-option.c"

static struct vbd_option o;

static const char *parse(const char *s)
{
    const char *why = vbd_parse_option(s, s + strlen(s), &o);

    return why ? why : "ok";
}

static void test_devices(void)
{
    CHECK_STR(parse("virtio-blk0"), "ok");
    CHECK_EQ(o.name_len, 11);
    CHECK_EQ(o.sel.by, GPT_BY_NONE);
    CHECK_EQ(o.vdev, -1);
    CHECK(!o.ro);
    CHECK_STR(parse("nvme0n1:ro"), "ok");
    CHECK_EQ(o.name_len, 7);
    CHECK(o.ro);
    CHECK(!o.cdrom);
    CHECK_STR(parse("nvme0n1:vdev=xvdc:ro"), "ok");
    CHECK_EQ(o.vdev, VBD_VDEV(2, 0));
    CHECK(o.ro);
    /* A CD-ROM is read-only, as xl's devtype=cdrom makes access=ro. */
    CHECK_STR(parse("virtio-blk1:cdrom"), "ok");
    CHECK_EQ(o.name_len, 11);
    CHECK(o.ro);
    CHECK(o.cdrom);
    CHECK_STR(parse("virtio-blk1:vdev=xvdd:cdrom"), "ok");
    CHECK_EQ(o.vdev, VBD_VDEV(3, 0));
    CHECK(o.cdrom);
    CHECK_STR(parse("virtio-blk0"), "ok");
    CHECK(!o.cdrom);                    /* nothing kept from the last */
}

static void test_partitions(void)
{
    CHECK_STR(parse("virtio-blk0:part=3"), "ok");
    CHECK_EQ(o.name_len, 11);
    CHECK_EQ(o.sel.by, GPT_BY_NUMBER);
    CHECK_EQ(o.sel.number, 3);
    CHECK_STR(parse("partuuid=6a0c1f0e-3d2b-4c5a-9e8f-0123456789ab"), "ok");
    CHECK_EQ(o.name_len, 0);
    CHECK_EQ(o.sel.by, GPT_BY_UUID);
    CHECK_STR(parse("partlabel=guest:vdev=xvda1:ro"), "ok");
    CHECK_EQ(o.name_len, 0);
    CHECK_EQ(o.sel.by, GPT_BY_LABEL);
    CHECK_STR(o.sel.label, "guest");
    CHECK_EQ(o.vdev, VBD_VDEV(0, 1));
    CHECK(o.ro);
    CHECK_STR(parse("nvme0n1:parttype=0fc63daf-8483-4772-8e79-3d69d8477de4"),
              "ok");
    CHECK_EQ(o.sel.by, GPT_BY_TYPE);
    /* Only up to @end: the next entry's text is not this one's. */
    CHECK(!vbd_parse_option("part=1,ro", strchr("part=1,ro", ','), &o));
    CHECK_EQ(o.sel.number, 1);
    CHECK(!o.ro);
}

static void test_vdev(void)
{
    CHECK_EQ(vbd_parse_vdev("vdev=xvda", 9), 0);
    CHECK_EQ(vbd_parse_vdev("vdev=xvdp", 9), VBD_VDEV(15, 0));
    CHECK_EQ(vbd_parse_vdev("vdev=xvdq", 9), VBD_VDEV(16, 0));
    CHECK_EQ(vbd_parse_vdev("vdev=xvdz3", 10), VBD_VDEV(25, 3));
    CHECK_EQ(vbd_parse_vdev("vdev=xvda1", 10), VBD_VDEV(0, 1));
    CHECK_EQ(vbd_parse_vdev("vdev=xvdb9", 10), VBD_VDEV(1, 9));
    CHECK_EQ(vbd_parse_vdev("vdev=xvdc10", 11), VBD_VDEV(2, 10));
    CHECK_EQ(vbd_parse_vdev("vdev=xvdd15", 11), VBD_VDEV(3, 15));
    CHECK_EQ(vbd_parse_vdev("vdev=xvd{", 9), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvdA", 9), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvda0", 10), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvda16", 11), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvda20", 11), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvda01", 11), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvda100", 12), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=sda", 8), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=xvd", 8), -1);
    CHECK_EQ(vbd_parse_vdev("vdev=hda1", 9), -1);
}

/* xl's device ids and names: the xvd form, then the extended one. */
static void test_devid_name(void)
{
    char name[8];

    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(0, 0)), 51712);        /* xvda */
    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(1, 0)), 51728);        /* xvdb */
    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(0, 1)), 51713);        /* xvda1 */
    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(15, 15)), 51967);      /* xvdp15 */
    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(16, 0)), 268439552);   /* xvdq */
    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(16, 2)), 268439554);   /* xvdq2 */
    CHECK_EQ(vbd_vdev_devid(VBD_VDEV(25, 0)), (1u << 28) | (25 << 8));
    vbd_vdev_name(name, sizeof(name), VBD_VDEV(0, 0));
    CHECK_STR(name, "xvda");
    vbd_vdev_name(name, sizeof(name), VBD_VDEV(16, 0));
    CHECK_STR(name, "xvdq");
    vbd_vdev_name(name, sizeof(name), VBD_VDEV(25, 15));
    CHECK_STR(name, "xvdz15");
}

static void test_refused(void)
{
    static const char *const bad[] = {
        "", ":ro", "virtio-blk0:rw", "virtio-blk0:ro:ro",
        "virtio-blk0:ro:part=1", "virtio-blk0:part=1:part=2",
        "part=1:partlabel=x", "virtio-blk0:vdev=xvda:vdev=xvdb",
        "virtio-blk0:vdev=xvd{", "virtio-blk0:vdev=", "virtio-blk0:vdev",
        "virtio-blk0:", "virtio-blk0::ro", "part=0", "virtio-blk0:part=",
        "virtio-blk0:partuuid=x", "virtio-blk0:RO", ":cdrom",
        "virtio-blk0:cdrom:ro", "virtio-blk0:ro:cdrom",
        "virtio-blk0:cdrom:cdrom", "virtio-blk0:cdrom:vdev=xvdb",
        "virtio-blk0:CDROM", "virtio-blk0:cd",
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
        if ( !strcmp(parse(bad[i]), "ok") )
        {
            printf("accepted: \"%s\"\n", bad[i]);
            CHECK(false);
        }
    CHECK_STR(parse("x:ro:vdev=xvda"), "\":ro\" or \":cdrom\" comes last");
    CHECK_STR(parse("x:cdrom:part=1"), "\":ro\" or \":cdrom\" comes last");
    CHECK_STR(parse(""), "no device or partition");
}

int main(void)
{
    RUN(test_devices);
    RUN(test_partitions);
    RUN(test_vdev);
    RUN(test_devid_name);
    RUN(test_refused);
    UNIT_EXIT();
}
