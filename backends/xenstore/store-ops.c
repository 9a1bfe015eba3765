/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Changing the store: write (creating missing parents, which inherit
 * their parent's permissions and belong to a domU that creates them),
 * remove a subtree, set permissions, and copy a tree for a transaction.
 * Quotas are checked before anything is allocated or changed.
 */
#include "backends/xenstore/xs.h"

static void *alloc_for(unsigned int dom, size_t size)
{
    return dom == XS_DOM_SHIM ? xs_alloc_shim(size) : xs_alloc(size);
}

static struct xs_value *value_new(unsigned int dom, const char *val,
                                  unsigned int len)
{
    struct xs_value *v;

    if ( !len )
        return NULL;
    if ( !(v = alloc_for(dom, sizeof(*v) + len)) )
        return NULL;
    v->refs = 1;
    v->len = len;
    memcpy(v->data, val, len);
    return v;
}

static void value_put(struct xs_value *v)
{
    if ( v && !--v->refs )
        xs_free(v);
}

static struct xs_node *node_new(unsigned int dom, struct xs_node *parent,
                                const char *name, size_t len)
{
    struct xs_node *n = alloc_for(dom, sizeof(*n));
    struct xs_node **pp;

    if ( !n || !(n->name = alloc_for(dom, len + 1)) )
    {
        xs_free(n);
        return NULL;
    }
    memcpy(n->name, name, len);
    n->nr_perms = parent->nr_perms;
    memcpy(n->perms, parent->perms, sizeof(n->perms));
    if ( dom != XS_DOM_SHIM )
        n->perms[0].id = dom;
    n->parent = parent;
    n->gen = ++xs_generation;
    for ( pp = &parent->children; *pp; pp = &(*pp)->next )
        continue;
    *pp = n;
    parent->gen = ++xs_generation;
    return n;
}

static unsigned int missing_nodes(const char *rest)
{
    unsigned int k = 1;

    for ( ; *rest; rest++ )
        k += *rest == '/';
    return k;
}

/*
 * Create what is missing of @path, @rest on, under @n; the new leaf.  A
 * transaction notes each new node as absent: so it was on the store.
 */
static int create_path(struct xs_ctx *c, struct xs_node *n, const char *path,
                       const char *rest, struct xs_node **leaf)
{
    char prefix[XENSTORE_ABS_PATH_MAX + 1];
    const char *end;
    int rc;

    if ( (xs_perm_for(c->dom, n) & XS_PERM_WRITE) == 0 )
        return XEN_EACCES;
    if ( c->dom != XS_DOM_SHIM &&
         c->tree->guest_nodes + missing_nodes(rest) > XS_QUOTA_NODES )
        return XEN_ENOSPC;
    end = strchr(rest, '/');
    if ( c->dom != XS_DOM_SHIM &&
         24 + n->nr_perms * 8 + (n->value ? n->value->len : 0) +
         xs_childlen(n) + (end ? (size_t)(end - rest) : strlen(rest)) + 1 >=
         XS_QUOTA_ENTRY_SIZE )
        return XEN_ENOSPC;
    while ( *rest )
    {
        end = strchr(rest, '/');
        if ( !end )
            end = rest + strlen(rest);
        if ( c->trans )
        {
            snprintf(prefix, sizeof(prefix), "%.*s", (int)(end - path), path);
            if ( (rc = xs_trans_note(c->trans, prefix, NULL)) )
                return rc;
        }
        if ( !(n = node_new(c->dom, n, rest, end - rest)) )
            return XEN_ENOMEM;
        if ( n->perms[0].id == XS_DOM_GUEST )
            c->tree->guest_nodes++;
        rest = *end ? end + 1 : end;
    }
    *leaf = n;
    return 0;
}

/* WRITE (or MKDIR: an existing node is left alone). */
int xs_write_node(struct xs_ctx *c, const char *path, const char *val,
                  unsigned int len, bool mkdir)
{
    struct xs_node *n;
    struct xs_value *v;
    int rc = xs_get(c, path, XS_PERM_WRITE, &n);

    if ( rc == XEN_ENOENT )
    {
        const char *rest;
        char ppath[XENSTORE_ABS_PATH_MAX + 1];
        struct xs_node *p = xs_lookup(c->tree, "/");

        /* The nearest existing parent changes: a transaction notes it. */
        for ( rest = path + 1; *rest; )
        {
            const char *end = strchr(rest, '/');
            struct xs_node *ch;

            if ( !end )
                end = rest + strlen(rest);
            for ( ch = p->children; ch; ch = ch->next )
                if ( !strncmp(ch->name, rest, end - rest) &&
                     !ch->name[end - rest] )
                    break;
            if ( !ch )
                break;
            p = ch;
            rest = *end ? end + 1 : end;
        }
        xs_node_path(p, ppath, sizeof(ppath));
        if ( c->trans && (rc = xs_trans_note(c->trans, ppath, p)) )
            return rc;
        if ( c->dom != XS_DOM_SHIM && len &&
             24 + p->nr_perms * 8 + len >= XS_QUOTA_ENTRY_SIZE )
            return XEN_ENOSPC;
        if ( (rc = create_path(c, p, path, rest, &n)) )
            return rc;
    }
    else if ( rc )
        return rc;
    else if ( mkdir )
        return 0;
    if ( mkdir )
        return 0;
    if ( c->dom != XS_DOM_SHIM &&
         24 + n->nr_perms * 8 + len + xs_childlen(n) >= XS_QUOTA_ENTRY_SIZE )
        return XEN_ENOSPC;
    if ( len && !(v = value_new(c->dom, val, len)) )
        return XEN_ENOMEM;
    if ( !len )
        v = NULL;
    value_put(n->value);
    n->value = v;
    n->gen = ++xs_generation;
    return 0;
}

int xs_rm_node(struct xs_ctx *c, const char *path)
{
    struct xs_node *n, *parent, **pp;
    int rc;

    if ( !strcmp(path, "/") )
        return XEN_EINVAL;
    rc = xs_get(c, path, XS_PERM_WRITE, &n);
    if ( rc == XEN_ENOENT )
    {
        /* Removing a missing node whose parent exists succeeds. */
        char ppath[XENSTORE_ABS_PATH_MAX + 1];
        size_t i;

        strlcpy(ppath, path, sizeof(ppath));
        for ( i = strlen(ppath); i > 1 && ppath[i - 1] != '/'; i-- )
            continue;
        ppath[i > 1 ? i - 1 : 1] = '\0';
        return xs_lookup(c->tree, ppath) ? 0 : XEN_ENOENT;
    }
    if ( rc )
        return rc;
    parent = n->parent;
    /*
     * In a transaction, the parent as it was before this change of its
     * own (its generation bumped below, in the transaction's copy): a
     * later look at it must not take that for another's change.
     */
    if ( c->trans )
    {
        char ppath[XENSTORE_ABS_PATH_MAX + 1];

        xs_node_path(parent, ppath, sizeof(ppath));
        if ( (rc = xs_trans_note(c->trans, ppath, parent)) )
            return rc;
    }
    for ( pp = &parent->children; *pp != n; pp = &(*pp)->next )
        continue;
    *pp = n->next;
    parent->gen = ++xs_generation;
    xs_subtree_free(c->tree, n);
    return 0;
}

int xs_set_perms_node(struct xs_ctx *c, const char *path,
                      const struct xs_perm *perms, unsigned int nr)
{
    struct xs_node *n;
    int rc = xs_get(c, path, XS_PERM_WRITE | XS_PERM_OWNER, &n);

    if ( rc )
        return rc;
    if ( c->dom != XS_DOM_SHIM && perms[0].id != n->perms[0].id )
        return XEN_EPERM;
    if ( c->dom != XS_DOM_SHIM &&
         24 + nr * 8 + (n->value ? n->value->len : 0) + xs_childlen(n) >=
         XS_QUOTA_ENTRY_SIZE )
        return XEN_ENOSPC;
    if ( n->perms[0].id == XS_DOM_GUEST )
        c->tree->guest_nodes--;
    if ( perms[0].id == XS_DOM_GUEST )
        c->tree->guest_nodes++;
    memset(n->perms, 0, sizeof(n->perms));
    memcpy(n->perms, perms, nr * sizeof(*perms));
    n->nr_perms = nr;
    n->gen = ++xs_generation;
    return 0;
}
