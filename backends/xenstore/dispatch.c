/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Request dispatch by type (C xenstored's process_message() toward an
 * unprivileged domain): the transaction id picks the tree, privileged
 * requests are refused with EACCES, unknown types with EINVAL.
 */
#include "backends/xenstore/xs.h"

static char reply[32];

static void send_error(const struct xsd_sockmsg *hdr, int err)
{
    const char *s = xs_error_string(err);

    xs_queue_reply(XS_ERROR, hdr->req_id, hdr->tx_id, s, strlen(s) + 1);
}

static void send_ok(const struct xsd_sockmsg *hdr)
{
    xs_queue_reply(hdr->type, hdr->req_id, hdr->tx_id, "OK", 3);
}

/* WRITE, MKDIR, RM, SET_PERMS: on the store, or in a transaction's copy. */
static int change(struct xs_ctx *c, const struct xsd_sockmsg *hdr,
                  const char *body)
{
    int rc;

    if ( !c->trans )
        return xs_apply(c, hdr->type, body, hdr->len, true);
    if ( (rc = xs_apply(c, hdr->type, body, hdr->len, false)) )
        return rc;
    return xs_trans_log(c, hdr->type, body, hdr->len);
}

static int transaction(struct xs_ctx *c, const struct xsd_sockmsg *hdr,
                       const char *body)
{
    uint32_t id;
    int rc;

    if ( hdr->type == XS_TRANSACTION_START )
    {
        if ( c->trans )
            return XEN_EBUSY;
        if ( (rc = xs_trans_start(&id)) )
            return rc;
        snprintf(reply, sizeof(reply), "%u", id);
        xs_queue_reply(hdr->type, hdr->req_id, hdr->tx_id, reply,
                       strlen(reply) + 1);
        return -1;
    }
    if ( !c->trans )
        return XEN_ENOENT;
    if ( hdr->len != 2 || body[1] != '\0' ||
         (body[0] != 'T' && body[0] != 'F') )
        return XEN_EINVAL;
    return xs_trans_end(hdr->tx_id, body[0] == 'T');
}

/* Requests outside the store: answered as xenstored answers a domU. */
static int other(const struct xsd_sockmsg *hdr, const char *body)
{
    switch ( hdr->type )
    {
    case XS_GET_DOMAIN_PATH:
        if ( hdr->len == 0 || body[hdr->len - 1] != '\0' ||
             strlen(body) != hdr->len - 1 )
            return XEN_EINVAL;
        snprintf(reply, sizeof(reply), "/local/domain/%u",
                 (unsigned int)simple_strtoull(body, NULL, 10, NULL));
        xs_queue_reply(hdr->type, hdr->req_id, hdr->tx_id, reply,
                       strlen(reply) + 1);
        return -1;
    case XS_RESET_WATCHES:
        xs_watch_reset();
        xs_trans_reset();
        return 0;
    case XS_CONTROL:
    case XS_INTRODUCE:
    case XS_RELEASE:
    case XS_IS_DOMAIN_INTRODUCED:
    case XS_RESUME:
    case XS_SET_TARGET:
        return XEN_EACCES;              /* privileged: the toolstack's */
    default:
        return XEN_EINVAL;              /* unknown, or server-to-client */
    }
}

/* @body holds hdr->len bytes and a nul after them. */
void xs_process(const struct xsd_sockmsg *hdr, const char *body)
{
    struct xs_ctx c = { .dom = XS_DOM_GUEST, .tree = &xs_main_tree };
    unsigned int len;
    int rc;

    /* Only the store's requests look at the transaction id. */
    switch ( hdr->type )
    {
    case XS_READ: case XS_DIRECTORY: case XS_DIRECTORY_PART:
    case XS_GET_PERMS: case XS_WRITE: case XS_MKDIR: case XS_RM:
    case XS_SET_PERMS: case XS_TRANSACTION_START: case XS_TRANSACTION_END:
        if ( hdr->tx_id && (rc = xs_trans_ctx(hdr->tx_id, &c)) )
            return send_error(hdr, rc);
        break;
    }

    switch ( hdr->type )
    {
    case XS_READ:
    case XS_DIRECTORY:
    case XS_DIRECTORY_PART:
    case XS_GET_PERMS:
        if ( (rc = xs_query(&c, hdr->type, body, hdr->len, &len)) )
            break;
        xs_queue_reply(hdr->type, hdr->req_id, hdr->tx_id, xs_reply, len);
        return;
    case XS_WRITE:
    case XS_MKDIR:
    case XS_RM:
    case XS_SET_PERMS:
        rc = change(&c, hdr, body);
        break;
    case XS_WATCH:
    case XS_UNWATCH:
        rc = xs_watch_request(hdr, body);
        break;
    case XS_TRANSACTION_START:
    case XS_TRANSACTION_END:
        rc = transaction(&c, hdr, body);
        break;
    default:
        rc = other(hdr, body);
        break;
    }
    if ( rc > 0 )
        send_error(hdr, rc);
    else if ( !rc )
        send_ok(hdr);
}
