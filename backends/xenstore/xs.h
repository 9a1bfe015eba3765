/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore backend's internals (backends/xenstore/): the arena, the
 * store's tree, watches, transactions and the connection, shared by its
 * files and the host tests.  Toward the rest of the shim: backends/xenstore.h.
 */
#ifndef BACKENDS_XENSTORE_XS_H
#define BACKENDS_XENSTORE_XS_H

#include "shim/lib.h"
#include <xen/errno.h>
#include <xen/io/xs_wire.h>

/*
 * Permission bits, as libxenstore's xenstore_lib.h (enum xs_perm_type)
 * numbers them; that header is the toolstack's, not a Xen public one.
 */
#define XS_PERM_NONE    0x00
#define XS_PERM_READ    0x01
#define XS_PERM_WRITE   0x02
#define XS_PERM_OWNER   0x08

#define XS_DOM_SHIM     0       /* the shim is "domain 0", the toolstack */
#define XS_DOM_GUEST    1

/* C xenstored's quota defaults for a domU (tools/xenstored/core.c). */
#define XS_QUOTA_NODES          1000    /* ENOSPC */
#define XS_QUOTA_ENTRY_SIZE     2048    /* ENOSPC: a node's record */
#define XS_QUOTA_WATCHES        128     /* E2BIG */
#define XS_QUOTA_TRANSACTIONS   10      /* ENOSPC */
#define XS_QUOTA_PERMS          5       /* ENOSPC: ACLs after the owner */
#define XS_QUOTA_TRANS_NODES    1024    /* ENOSPC: nodes a transaction sees */
#define XS_QUOTA_PATH_LEN       XENSTORE_REL_PATH_MAX

/* ---- arena.c: every byte the store holds comes from one static arena. */
/* NULL when the guest's share is used up. */
void *xs_alloc(size_t size);
void *xs_alloc_shim(size_t size);       /* may use the shim's reserve */
void xs_free(void *p);
size_t xs_arena_used(void);
void xs_arena_reset(void);              /* host tests: forget everything */

/* ---- store.c: the tree. */
struct xs_perm {
    uint16_t id;
    uint8_t perm;
};

struct xs_value {                       /* shared by transaction copies */
    unsigned int refs, len;
    char data[];
};

struct xs_node {
    struct xs_node *parent, *children, *next;
    char *name;                         /* this path element */
    struct xs_value *value;             /* NULL: empty */
    uint64_t gen;                       /* changed on every modification */
    unsigned int nr_perms;
    struct xs_perm perms[XS_QUOTA_PERMS + 1];
};

struct xs_tree {
    struct xs_node *root;
    unsigned int guest_nodes;           /* owned by the guest: quota */
};

/* Who asks, and the transaction's record of what it saw (or NULL). */
struct xs_trans;
struct xs_ctx {
    unsigned int dom;
    struct xs_tree *tree;
    struct xs_trans *trans;
};

extern struct xs_tree xs_main_tree;
extern uint64_t xs_generation;

bool xs_path_valid(const char *path, bool allow_special);
unsigned int xs_perm_for(unsigned int dom, const struct xs_node *n);
struct xs_node *xs_lookup(struct xs_tree *t, const char *path);
int xs_get(struct xs_ctx *c, const char *path, unsigned int perm,
           struct xs_node **out);
int xs_write_node(struct xs_ctx *c, const char *path, const char *val,
                  unsigned int len, bool mkdir);
int xs_rm_node(struct xs_ctx *c, const char *path);
int xs_set_perms_node(struct xs_ctx *c, const char *path,
                      const struct xs_perm *perms, unsigned int nr);
unsigned int xs_childlen(const struct xs_node *n);
struct xs_node *xs_tree_copy(struct xs_tree *dst, const struct xs_tree *src);
void xs_tree_free(struct xs_tree *t);
void xs_subtree_free(struct xs_tree *t, struct xs_node *top);
void xs_node_path(const struct xs_node *n, char *buf, size_t size);

/* ---- watch.c */
int xs_watch_add(const char *path, const char *token, bool relative);
int xs_watch_remove(const char *path, const char *token);
void xs_watch_reset(void);
/* @path changed (@recurse: removed with its subtree): queue the events. */
void xs_fire_watches(const char *path, bool recurse);
void xs_fire_one(const char *path, const char *token);
/* The shim's own watches (backends/xenstore.h's xs_shim_watch()). */
typedef void xs_shim_watch_fn(const char *path, void *data);
int xs_shim_watch_add(const char *path, xs_shim_watch_fn *fn, void *data);
void xs_shim_watch_remove(const char *path, xs_shim_watch_fn *fn,
                          void *data);
void xs_shim_watches_run(void);

/* ---- transaction.c */
int xs_trans_start(uint32_t *id);
int xs_trans_end(uint32_t id, bool commit);
int xs_trans_ctx(uint32_t id, struct xs_ctx *c);
int xs_trans_note(struct xs_trans *t, const char *path,
                  const struct xs_node *n);
int xs_trans_log(struct xs_ctx *c, uint32_t type, const char *body,
                 unsigned int len);
void xs_trans_reset(void);

/* ---- protocol.c, dispatch.c: one whole request in, replies queued. */
void xs_process(const struct xsd_sockmsg *hdr, const char *body);
const char *xs_error_string(int err);
extern char xs_reply[XENSTORE_PAYLOAD_MAX + 1];
int xs_query(struct xs_ctx *c, uint32_t type, const char *body,
             unsigned int len, unsigned int *rlen);
int xs_watch_request(const struct xsd_sockmsg *hdr, const char *body);
/* Replay one logged request on the main tree (transaction commit). */
int xs_apply(struct xs_ctx *c, uint32_t type, const char *body,
             unsigned int len, bool fire);

/* ---- ring.c: the connection. */
bool xs_queue_reply(uint32_t type, uint32_t req_id, uint32_t tx_id,
                    const void *body, unsigned int len);
bool xs_queue_event(const char *path, const char *token);
void xs_conn_reset(void);
void xs_ring_attach(struct xenstore_domain_interface *page);
bool xs_ring_run(bool *notify);
bool xs_ring_waiting(void);
unsigned long xs_dropped_events(void);
struct xs_ring_state {
    bool attached, ignored;
    uint32_t req_cons, req_prod, rsp_cons, rsp_prod, connection, error;
    unsigned int in_used, queued;      /* a request's bytes, replies' */
    unsigned long dropped_events;
};
void xs_ring_state(struct xs_ring_state *s);

/* ---- seed.c: what a domU's store holds when it starts. */
struct xs_seed_info {
    unsigned long nr_pages, store_mfn, console_mfn;
    unsigned int vcpus, store_port, console_port;
    const char *name, *uuid;
};
void xs_seed(const struct xs_seed_info *info);
/* The shim's own write (as the toolstack): watches fire. */
int xs_shim_write_path(const char *path, const char *value);

#endif /* BACKENDS_XENSTORE_XS_H */
