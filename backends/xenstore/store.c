/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The store: a tree of nodes with values, permissions and a generation
 * count, with C xenstored's rules for paths, permissions (the owner gets
 * everything, else the first matching ACL entry, else the default) and a
 * domU's quotas (tools/xenstored/core.c, docs/misc/xenstore.txt).
 */
#include "backends/xenstore/xs.h"

struct xs_tree xs_main_tree;
uint64_t xs_generation;

static bool valid_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '-' || ch == '/' ||
           ch == '_' || ch == '@';
}

/* Absolute, no "//", no trailing '/', the characters xenstored allows. */
bool xs_path_valid(const char *path, bool allow_special)
{
    size_t len = strlen(path), off = 0, i;

    if ( path[0] != '/' && !(allow_special && path[0] == '@') )
        return false;
    if ( len > 1 && path[len - 1] == '/' )
        return false;
    for ( i = 0; i < len; i++ )
        if ( !valid_char(path[i]) || (path[i] == '/' && path[i + 1] == '/') )
            return false;
    /* The length quota counts from after "/local/domain/<id>/". */
    if ( !strncmp(path, "/local/domain/", 14) )
    {
        for ( i = 14; i < len && i < 19 && path[i] >= '0' && path[i] <= '9';
              i++ )
            continue;
        if ( i > 14 && path[i] == '/' )
            off = i + 1;
    }
    return len - off <= XS_QUOTA_PATH_LEN;
}

unsigned int xs_perm_for(unsigned int dom, const struct xs_node *n)
{
    const unsigned int all = XS_PERM_READ | XS_PERM_WRITE | XS_PERM_OWNER;
    unsigned int i;

    if ( dom == XS_DOM_SHIM || n->perms[0].id == dom )
        return all;
    for ( i = 1; i < n->nr_perms; i++ )
        if ( n->perms[i].id == dom )
            return n->perms[i].perm & all;
    return n->perms[0].perm & all;
}

static struct xs_node *child(const struct xs_node *n, const char *name,
                             size_t len)
{
    struct xs_node *c;

    for ( c = n->children; c; c = c->next )
        if ( !strncmp(c->name, name, len) && c->name[len] == '\0' )
            return c;
    return NULL;
}

/*
 * Walk @path as far as it exists: the deepest node reached, and in
 * *@rest what is left ("" when the whole path exists).
 */
static struct xs_node *walk(struct xs_tree *t, const char *path,
                            const char **rest)
{
    struct xs_node *n = t->root, *c;
    const char *p = path + 1, *end;

    while ( *p )
    {
        end = strchr(p, '/');
        if ( !end )
            end = p + strlen(p);
        if ( !(c = child(n, p, end - p)) )
            break;
        n = c;
        p = *end ? end + 1 : end;
    }
    *rest = p;
    return n;
}

struct xs_node *xs_lookup(struct xs_tree *t, const char *path)
{
    const char *rest;
    struct xs_node *n = walk(t, path, &rest);

    return *rest ? NULL : n;
}

unsigned int xs_childlen(const struct xs_node *n)
{
    unsigned int len = 0;
    const struct xs_node *c;

    for ( c = n->children; c; c = c->next )
        len += strlen(c->name) + 1;
    return len;
}

/* Fetch @path for @perm, noting what a transaction saw. */
int xs_get(struct xs_ctx *c, const char *path, unsigned int perm,
           struct xs_node **out)
{
    const char *rest;
    struct xs_node *n = walk(c->tree, path, &rest);
    int rc;

    *out = NULL;
    if ( c->trans && (rc = xs_trans_note(c->trans, path, *rest ? NULL : n)) )
        return rc;
    if ( *rest )
        /* Only who may read the nearest parent learns it is missing. */
        return (xs_perm_for(c->dom, n) & XS_PERM_READ) ? XEN_ENOENT
                                                       : XEN_EACCES;
    if ( (xs_perm_for(c->dom, n) & perm) != perm )
        return XEN_EACCES;
    *out = n;
    return 0;
}

static struct xs_node *clone(const struct xs_node *src,
                             struct xs_node *parent)
{
    struct xs_node *n = xs_alloc(sizeof(*n));
    size_t len = strlen(src->name);

    if ( !n || !(n->name = xs_alloc(len + 1)) )
    {
        xs_free(n);
        return NULL;
    }
    memcpy(n->name, src->name, len);
    n->parent = parent;
    n->value = src->value;
    if ( n->value )
        n->value->refs++;
    n->gen = src->gen;
    n->nr_perms = src->nr_perms;
    memcpy(n->perms, src->perms, sizeof(n->perms));
    return n;
}

/*
 * A transaction's private copy; values are shared, not copied.  Walked
 * without recursion: a guest can make a path ~1000 nodes deep.
 */
struct xs_node *xs_tree_copy(struct xs_tree *dst, const struct xs_tree *src)
{
    const struct xs_node *s = src->root;
    struct xs_node *d;

    dst->guest_nodes = src->guest_nodes;
    if ( !(dst->root = d = clone(s, NULL)) )
        return NULL;
    for ( ;; )
    {
        if ( s->children )
        {
            s = s->children;
            if ( !(d->children = clone(s, d)) )
                goto fail;
            d = d->children;
            continue;
        }
        while ( s != src->root && !s->next )
        {
            s = s->parent;
            d = d->parent;
        }
        if ( s == src->root )
            return dst->root;
        s = s->next;
        if ( !(d->next = clone(s, d->parent)) )
            goto fail;
        d = d->next;
    }
 fail:
    xs_tree_free(dst);
    return NULL;
}

/* Free @n and its subtree (already unlinked), counting the guest's nodes. */
void xs_subtree_free(struct xs_tree *t, struct xs_node *top)
{
    struct xs_node *n = top, *up, *next;

    while ( n )
    {
        if ( n->children )
        {
            n = n->children;
            continue;
        }
        up = n->parent;
        next = n->next;
        if ( n != top )
            up->children = next;        /* n is always the first child */
        if ( n->perms[0].id == XS_DOM_GUEST && t->guest_nodes )
            t->guest_nodes--;
        if ( n->value && !--n->value->refs )
            xs_free(n->value);
        xs_free(n->name);
        xs_free(n);
        n = n == top ? NULL : next ? next : up;
    }
}

void xs_tree_free(struct xs_tree *t)
{
    if ( t->root )
        xs_subtree_free(t, t->root);
    t->root = NULL;
    t->guest_nodes = 0;
}

/* @n's absolute path into @buf (@size >= XENSTORE_ABS_PATH_MAX + 1). */
void xs_node_path(const struct xs_node *n, char *buf, size_t size)
{
    const struct xs_node *p;
    size_t len = 0, l;

    for ( p = n; p->parent; p = p->parent )
        len += strlen(p->name) + 1;
    if ( !len )
        len = 1;
    if ( len >= size )
        len = size - 1;
    buf[len] = '\0';
    buf[0] = '/';
    for ( p = n; p->parent; p = p->parent )
    {
        l = strlen(p->name);
        if ( l + 1 > len )
            break;
        len -= l;
        memcpy(buf + len, p->name, l);
        buf[--len] = '/';
    }
}
