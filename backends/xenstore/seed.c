/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The store a domU starts with, as `xl create` leaves it for a PV guest
 * (tools/libs/light/libxl_create.c libxl__domain_make(), libxl_dom.c
 * libxl__build_post(), the console device): the domain's directory is
 * the toolstack's and read-only to the guest, with a few guest-owned
 * nodes under it (control/shutdown, data, device frontends' console).
 */
#include "backends/xenstore/xs.h"

#define DOM     "/local/domain/1"

static const struct xs_perm noperm[] = { { XS_DOM_SHIM, XS_PERM_NONE } };
static const struct xs_perm roperm[] = {
    { XS_DOM_SHIM, XS_PERM_NONE }, { XS_DOM_GUEST, XS_PERM_READ },
};
static const struct xs_perm rwperm[] = { { XS_DOM_GUEST, XS_PERM_NONE } };
/* A frontend's directory: the guest's, readable by its backend. */
static const struct xs_perm feperm[] = {
    { XS_DOM_GUEST, XS_PERM_NONE }, { XS_DOM_SHIM, XS_PERM_READ },
};

static struct xs_ctx shim_ctx = { .dom = XS_DOM_SHIM, .tree = &xs_main_tree };

static void node(const char *path, const char *value,
                 const struct xs_perm *perms, unsigned int nr)
{
    xs_write_node(&shim_ctx, path, value, value ? strlen(value) : 0, !value);
    if ( perms )
        xs_set_perms_node(&shim_ctx, path, perms, nr);
}

static void nodef(const char *path, const char *fmt, unsigned long v)
{
    char buf[24];

    snprintf(buf, sizeof(buf), fmt, v);
    node(path, buf, NULL, 0);
}

static void seed_control(void)
{
    static const char *const rw[] = {
        "control/shutdown", "control/feature-poweroff",
        "control/feature-reboot", "control/feature-suspend", "control/sysrq",
        "data", "drivers", "feature", "attr", "error",
    };
    char path[64];
    unsigned int i;

    node(DOM "/device", NULL, roperm, ARRAY_SIZE(roperm));
    node(DOM "/control", NULL, roperm, ARRAY_SIZE(roperm));
    for ( i = 0; i < ARRAY_SIZE(rw); i++ )
    {
        snprintf(path, sizeof(path), DOM "/%s", rw[i]);
        node(path, NULL, rwperm, ARRAY_SIZE(rwperm));
    }
    node(DOM "/control/platform-feature-multiprocessor-suspend", "1",
         NULL, 0);
    node(DOM "/control/platform-feature-xs_reset_watches", "1", NULL, 0);
}

void xs_seed(const struct xs_seed_info *info)
{
    char path[80];
    unsigned int i;

    xs_tree_free(&xs_main_tree);
    xs_main_tree.root = xs_alloc_shim(sizeof(*xs_main_tree.root));
    xs_main_tree.root->name = xs_alloc_shim(1);
    xs_main_tree.root->nr_perms = 1;
    xs_main_tree.root->gen = ++xs_generation;

    node("/local/domain/0/name", "Domain-0", NULL, 0);
    node("/local/domain/0/domid", "0", NULL, 0);
    snprintf(path, sizeof(path), "/vm/%s", info->uuid);
    node(path, NULL, roperm, ARRAY_SIZE(roperm));
    snprintf(path, sizeof(path), "/vm/%s/uuid", info->uuid);
    node(path, info->uuid, NULL, 0);
    snprintf(path, sizeof(path), "/vm/%s/name", info->uuid);
    node(path, info->name, NULL, 0);
    node("/libxl", NULL, noperm, ARRAY_SIZE(noperm));

    node(DOM, NULL, roperm, ARRAY_SIZE(roperm));
    snprintf(path, sizeof(path), "/vm/%s", info->uuid);
    node(DOM "/vm", path, NULL, 0);
    node(DOM "/name", info->name, NULL, 0);
    node(DOM "/domid", "1", NULL, 0);
    nodef(DOM "/memory/static-max", "%lu", info->nr_pages << 2);
    nodef(DOM "/memory/target", "%lu", info->nr_pages << 2);
    for ( i = 0; i < info->vcpus; i++ )
    {
        snprintf(path, sizeof(path), DOM "/cpu/%u/availability", i);
        node(path, "online", NULL, 0);
    }
    seed_control();
    nodef(DOM "/store/port", "%lu", info->store_port);
    nodef(DOM "/store/ring-ref", "%lu", info->store_mfn);
    node(DOM "/console", NULL, feperm, ARRAY_SIZE(feperm));
    nodef(DOM "/console/port", "%lu", info->console_port);
    nodef(DOM "/console/ring-ref", "%lu", info->console_mfn);
    node(DOM "/console/limit", "1048576", NULL, 0);
    node(DOM "/console/type", "xenconsoled", NULL, 0);
    node(DOM "/console/output", "pty", NULL, 0);
}

/* The toolstack writes: creating as needed, firing the guest's watches. */
int xs_shim_write_path(const char *path, const char *value)
{
    int rc;

    if ( !xs_path_valid(path, false) )
        return XEN_EINVAL;
    rc = xs_write_node(&shim_ctx, path, value, strlen(value), false);
    if ( !rc )
        xs_fire_watches(path, false);
    return rc;
}
