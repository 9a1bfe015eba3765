/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Watches (C xenstored's watch.c): a change to a node fires every watch
 * on it or on an ancestor, with the changed path; removing a subtree also
 * fires the watches inside it, with the watch's own path.  A relative
 * watch is on /local/domain/1/... and its events carry relative paths.
 */
#include "backends/xenstore.h"
#include "backends/xenstore/xs.h"

#define DOMAIN_PATH     "/local/domain/1"

struct xs_watch {
    struct xs_watch *next;
    bool relative;
    char *path;                         /* absolute, or "@..." */
    char *token;
};

static struct xs_watch *watches;
static unsigned int nr_watches;

static char *dup(const char *s)
{
    size_t len = strlen(s);
    char *d = xs_alloc(len + 1);

    if ( d )
        memcpy(d, s, len);
    return d;
}

/* Is @child @parent or below it? */
static bool is_child(const char *child, const char *parent)
{
    size_t len = strlen(parent);

    if ( !strcmp(parent, "/") )
        return child[0] == '/';
    return !strncmp(child, parent, len) &&
           (child[len] == '\0' || child[len] == '/');
}

/* @path is canonical and valid; @relative: the guest gave it relative. */
int xs_watch_add(const char *path, const char *token, bool relative)
{
    struct xs_watch *w;

    for ( w = watches; w; w = w->next )
        if ( !strcmp(w->path, path) && !strcmp(w->token, token) )
            return XEN_EEXIST;
    /* As xenstored: over the quota only once it is exceeded. */
    if ( nr_watches > XS_QUOTA_WATCHES )
        return XEN_E2BIG;
    if ( !(w = xs_alloc(sizeof(*w))) || !(w->path = dup(path)) ||
         !(w->token = dup(token)) )
    {
        if ( w )
            xs_free(w->path);
        xs_free(w);
        return XEN_ENOMEM;
    }
    w->relative = relative;
    w->next = watches;
    watches = w;
    nr_watches++;
    return 0;
}

static void watch_free(struct xs_watch *w)
{
    xs_free(w->path);
    xs_free(w->token);
    xs_free(w);
    nr_watches--;
}

int xs_watch_remove(const char *path, const char *token)
{
    struct xs_watch **pp, *w;

    for ( pp = &watches; (w = *pp) != NULL; pp = &w->next )
        if ( !strcmp(w->path, path) && !strcmp(w->token, token) )
        {
            *pp = w->next;
            watch_free(w);
            return 0;
        }
    return XEN_ENOENT;
}

void xs_watch_reset(void)
{
    struct xs_watch *w;

    while ( (w = watches) != NULL )
    {
        watches = w->next;
        watch_free(w);
    }
}

void xs_fire_one(const char *path, const char *token)
{
    xs_queue_event(path, token);
}

static void fire(const struct xs_watch *w, const char *path)
{
    size_t plen = strlen(DOMAIN_PATH);

    if ( w->relative && !strncmp(path, DOMAIN_PATH "/", plen + 1) )
        path += plen + 1;
    xs_queue_event(path, w->token);
}

/*
 * The shim's own watches (a backend on its frontend's state): no token,
 * no event queue: a change marks the watch, and xs_shim_watches_run()
 * calls it once for any number of changes, after the request that made
 * them (Xen's watches fire once when set, too).
 */
#define XS_SHIM_PATH_MAX    127     /* the backends' own paths, short */
static struct xs_shim_watch {
    char path[XS_SHIM_PATH_MAX + 1];        /* "": free */
    xs_shim_watch_fn *fn;
    void *data;
    bool pending;
} shim_watches[XS_SHIM_WATCHES];

int xs_shim_watch_add(const char *path, xs_shim_watch_fn *fn, void *data)
{
    unsigned int i;

    if ( !xs_path_valid(path, false) || path[0] != '/' )
        return XEN_EINVAL;
    if ( strlen(path) > XS_SHIM_PATH_MAX )
        return XEN_ENAMETOOLONG;
    for ( i = 0; i < XS_SHIM_WATCHES; i++ )
        if ( !shim_watches[i].path[0] )
        {
            strlcpy(shim_watches[i].path, path,
                    sizeof(shim_watches[i].path));
            shim_watches[i].fn = fn;
            shim_watches[i].data = data;
            shim_watches[i].pending = true;
            return 0;
        }
    return XEN_ENOSPC;
}

void xs_shim_watch_remove(const char *path, xs_shim_watch_fn *fn, void *data)
{
    unsigned int i;

    for ( i = 0; i < XS_SHIM_WATCHES; i++ )
        if ( shim_watches[i].fn == fn && shim_watches[i].data == data &&
             !strcmp(shim_watches[i].path, path) )
            shim_watches[i].path[0] = '\0';
}

/*
 * Call each marked watch; a watch's own writes may mark it again, and
 * are seen in a few more rounds (what is left stays marked for the next
 * run: a callback that always writes its own path can't loop here).
 */
void xs_shim_watches_run(void)
{
    static bool running;
    unsigned int i, rounds = 8;
    bool again = true;

    if ( running )
        return;                         /* the outer run sees the marks */
    running = true;
    while ( again && rounds-- )
    {
        again = false;
        for ( i = 0; i < XS_SHIM_WATCHES; i++ )
        {
            struct xs_shim_watch *w = &shim_watches[i];

            if ( !w->path[0] || !w->pending )
                continue;
            w->pending = false;
            w->fn(w->path, w->data);
            again = true;
        }
    }
    running = false;
}

static void fire_shim(const char *path, bool recurse)
{
    unsigned int i;

    for ( i = 0; i < XS_SHIM_WATCHES; i++ )
    {
        struct xs_shim_watch *w = &shim_watches[i];

        if ( w->path[0] && (is_child(path, w->path) ||
                            (recurse && is_child(w->path, path))) )
            w->pending = true;
    }
}

/*
 * @path (absolute, or "@..." special) changed in the main tree; for a
 * removal, call before the subtree goes, with @recurse.  The guest hears
 * only of nodes it may read, as xenstored checks; the shim of all.
 */
void xs_fire_watches(const char *path, bool recurse)
{
    const struct xs_node *n = path[0] == '/' ? xs_lookup(&xs_main_tree, path)
                                             : NULL;
    const struct xs_watch *w;

    if ( path[0] == '/' )
        fire_shim(path, recurse);
    if ( n && !(xs_perm_for(XS_DOM_GUEST, n) & XS_PERM_READ) )
        return;
    for ( w = watches; w; w = w->next )
    {
        if ( path[0] == '@' || w->path[0] == '@' )
        {
            if ( !strcmp(path, w->path) )
                fire(w, path);
        }
        else if ( is_child(path, w->path) )
            fire(w, path);
        else if ( recurse && is_child(w->path, path) )
            fire(w, w->path);
    }
}
