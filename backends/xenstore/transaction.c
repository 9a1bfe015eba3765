/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Transactions, by C xenstored's generation counts (transaction.c): a
 * transaction works on its own copy of the tree, notes the generation of
 * every node it looks at (0: absent) and logs its changes; at the end,
 * if any noted node changed meanwhile it fails with EAGAIN, else its
 * logged requests are replayed on the store, firing their watches, all
 * of them or (an error) none.
 */
#include "backends/xenstore/xs.h"

struct xs_seen {
    struct xs_seen *next;
    uint64_t gen;
    size_t len;                     /* strlen(path): compared first */
    char path[];
};

struct xs_op {
    struct xs_op *next;
    uint32_t type, len;
    char body[];
};

struct xs_trans {
    struct xs_trans *next;
    uint32_t id;
    struct xs_tree tree;
    struct xs_seen *seen;
    unsigned int nr_seen, nr_ops;
    struct xs_op *ops, **ops_tail;
};

static struct xs_trans *transactions;
static unsigned int nr_transactions;
static uint32_t next_id = 1;

static struct xs_trans *find(uint32_t id)
{
    struct xs_trans *t;

    for ( t = transactions; t; t = t->next )
        if ( t->id == id )
            return t;
    return NULL;
}

int xs_trans_start(uint32_t *id)
{
    struct xs_trans *t;

    if ( nr_transactions > XS_QUOTA_TRANSACTIONS )
        return XEN_ENOSPC;
    if ( !(t = xs_alloc(sizeof(*t))) )
        return XEN_ENOMEM;
    if ( !xs_tree_copy(&t->tree, &xs_main_tree) )
    {
        xs_free(t);
        return XEN_ENOMEM;
    }
    /* Ids are never 0 and never one in use. */
    do {
        t->id = next_id++;
    } while ( !t->id || find(t->id) );
    t->ops_tail = &t->ops;
    t->next = transactions;
    transactions = t;
    nr_transactions++;
    *id = t->id;
    return 0;
}

int xs_trans_ctx(uint32_t id, struct xs_ctx *c)
{
    struct xs_trans *t = find(id);

    if ( !t )
        return XEN_ENOENT;
    c->tree = &t->tree;
    c->trans = t;
    return 0;
}

int xs_trans_note(struct xs_trans *t, const char *path,
                  const struct xs_node *n)
{
    struct xs_seen *s;
    size_t len = strlen(path);

    /*
     * The lengths first: a path created deep in a transaction notes each
     * of its prefixes, all alike but in length, and comparing their
     * bytes each time would be quadratic in the path's length.
     */
    for ( s = t->seen; s; s = s->next )
        if ( s->len == len && !memcmp(s->path, path, len) )
            return 0;
    if ( t->nr_seen >= XS_QUOTA_TRANS_NODES )
        return XEN_ENOSPC;
    if ( !(s = xs_alloc(sizeof(*s) + len + 1)) )
        return XEN_ENOMEM;
    memcpy(s->path, path, len);
    s->path[len] = '\0';
    s->len = len;
    s->gen = n ? n->gen : 0;
    s->next = t->seen;
    t->seen = s;
    t->nr_seen++;
    return 0;
}

int xs_trans_log(struct xs_ctx *c, uint32_t type, const char *body,
                 unsigned int len)
{
    struct xs_trans *t = c->trans;
    struct xs_op *op;

    if ( t->nr_ops >= XS_QUOTA_TRANS_NODES )
        return XEN_ENOSPC;
    if ( !(op = xs_alloc(sizeof(*op) + len + 1)) )
        return XEN_ENOMEM;
    op->type = type;
    op->len = len;
    memcpy(op->body, body, len);
    *t->ops_tail = op;
    t->ops_tail = &op->next;
    t->nr_ops++;
    return 0;
}

static bool conflicts(const struct xs_trans *t)
{
    const struct xs_seen *s;
    const struct xs_node *n;

    for ( s = t->seen; s; s = s->next )
    {
        n = xs_lookup(&xs_main_tree, s->path);
        if ( (n ? n->gen : 0) != s->gen )
            return true;
    }
    return false;
}

static void trans_free(struct xs_trans *t)
{
    struct xs_trans **pp;
    struct xs_seen *s;
    struct xs_op *op;

    for ( pp = &transactions; *pp != t; pp = &(*pp)->next )
        continue;
    *pp = t->next;
    while ( (s = t->seen) != NULL )
    {
        t->seen = s->next;
        xs_free(s);
    }
    while ( (op = t->ops) != NULL )
    {
        t->ops = op->next;
        xs_free(op);
    }
    xs_tree_free(&t->tree);
    xs_free(t);
    nr_transactions--;
}

/*
 * Replay @t's requests on @tree (quietly, or firing their watches): 0,
 * or the first error, after which the rest are not tried.
 */
static int replay(const struct xs_trans *t, struct xs_tree *tree, bool fire)
{
    struct xs_ctx c = { .dom = XS_DOM_GUEST, .tree = tree };
    const struct xs_op *op;
    int rc;

    for ( op = t->ops; op; op = op->next )
        if ( (rc = xs_apply(&c, op->type, op->body, op->len, fire)) )
            return rc;
    return 0;
}

/*
 * A commit is all or nothing, as xenstored's: nothing it depends on
 * changed, but the requests can still fail where they did not in its
 * own tree (the guest's node quota, filled meanwhile outside it, or the
 * arena).  So they are tried first on a copy of the store; only if all
 * succeed are they replayed on the store itself, where, from the same
 * state and with the copy's memory given back, each does as it did on
 * the copy.
 */
static int commit(const struct xs_trans *t)
{
    struct xs_tree trial;
    int rc;

    if ( conflicts(t) )
        return XEN_EAGAIN;
    if ( !t->ops )
        return 0;
    if ( !xs_tree_copy(&trial, &xs_main_tree) )
        return XEN_ENOMEM;
    rc = replay(t, &trial, false);
    xs_tree_free(&trial);
    if ( rc )
        return rc;
    return replay(t, &xs_main_tree, true);
}

int xs_trans_end(uint32_t id, bool commit_it)
{
    struct xs_trans *t = find(id);
    int rc = 0;

    if ( !t )
        return XEN_ENOENT;
    if ( commit_it )
        rc = commit(t);
    trans_free(t);
    return rc;
}

void xs_trans_reset(void)
{
    while ( transactions )
        trans_free(transactions);
    next_id = 1;
}
