/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim as a client of its own store (backends/xenstore.h): the
 * backends read their frontends' nodes, make the device directories as
 * libxl does, and watch the frontends' state, as domain 0.
 */
#include "backends/xenstore.h"
#include "backends/xenstore/xs.h"

static struct xs_ctx shim = { .dom = XS_DOM_SHIM, .tree = &xs_main_tree };

int xs_shim_read(const char *path, char *buf, size_t size)
{
    struct xs_node *n;
    int rc;

    if ( !xs_path_valid(path, false) || path[0] != '/' || !size )
        return XEN_EINVAL;
    if ( (rc = xs_get(&shim, path, XS_PERM_READ, &n)) )
        return rc;
    if ( !n->value )
    {
        buf[0] = '\0';
        return 0;
    }
    if ( n->value->len >= size )
        return XEN_E2BIG;
    memcpy(buf, n->value->data, n->value->len);
    buf[n->value->len] = '\0';
    return 0;
}

int xs_shim_read_ulong(const char *dir, const char *name, unsigned long *out)
{
    char path[128], buf[24];
    bool overflow;
    int rc;

    if ( snprintf(path, sizeof(path), "%s/%s", dir, name) >=
         (int)sizeof(path) )
        return XEN_E2BIG;
    if ( (rc = xs_shim_read(path, buf, sizeof(buf))) )
        return rc;
    if ( !parse_ulong_exact(buf, out, &overflow) )
        return overflow ? XEN_ERANGE : XEN_EINVAL;
    return 0;
}

int xs_shim_writef(const char *dir, const char *name, const char *fmt, ...)
{
    char path[128], value[128];
    va_list ap;

    if ( snprintf(path, sizeof(path), "%s/%s", dir, name) >=
         (int)sizeof(path) )
        return XEN_E2BIG;
    va_start(ap, fmt);
    vsnprintf(value, sizeof(value), fmt, ap);
    va_end(ap);
    return xs_shim_write(path, value);
}

int xs_shim_mkdir(const char *path, unsigned int owner, unsigned int reader)
{
    const struct xs_perm perms[] = {
        { owner, XS_PERM_NONE }, { reader, XS_PERM_READ },
    };
    int rc;

    if ( !xs_path_valid(path, false) || path[0] != '/' )
        return XEN_EINVAL;
    if ( (rc = xs_write_node(&shim, path, NULL, 0, true)) ||
         (rc = xs_set_perms_node(&shim, path, perms, ARRAY_SIZE(perms))) )
        return rc;
    xs_fire_watches(path, false);
    return 0;
}

int xs_shim_rm(const char *path)
{
    int rc;

    if ( !xs_path_valid(path, false) || path[0] != '/' )
        return XEN_EINVAL;
    if ( !xs_lookup(&xs_main_tree, path) )
        return 0;
    xs_fire_watches(path, true);
    rc = xs_rm_node(&shim, path);
    xenstore_ring_work();               /* deliver the watch events */
    return rc;
}

int xs_shim_watch(const char *path, xs_shim_watch_fn *fn, void *data)
{
    int rc = xs_shim_watch_add(path, fn, data);

    if ( !rc )
        xenstore_ring_work();           /* it fires once when set */
    return rc;
}

void xs_shim_unwatch(const char *path, xs_shim_watch_fn *fn, void *data)
{
    xs_shim_watch_remove(path, fn, data);
}
