/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore wire protocol (xen/io/xs_wire.h): one whole request in,
 * its reply (or an error string from xsd_errors) out, dispatched by type
 * as C xenstored's process_message() does for an unprivileged domain.
 */
#include "backends/xenstore/xs.h"

#define DOMAIN_PATH     "/local/domain/1"
#define PATH_BUF        (XENSTORE_PAYLOAD_MAX + sizeof(DOMAIN_PATH) + 1)

const char *xs_error_string(int err)
{
    static const struct { int err; const char *s; } names[] = {
        { XEN_EINVAL, "EINVAL" }, { XEN_EACCES, "EACCES" },
        { XEN_EEXIST, "EEXIST" }, { XEN_EISDIR, "EISDIR" },
        { XEN_ENOENT, "ENOENT" }, { XEN_ENOMEM, "ENOMEM" },
        { XEN_ENOSPC, "ENOSPC" }, { XEN_EIO, "EIO" },
        { XEN_ENOTEMPTY, "ENOTEMPTY" }, { XEN_ENOSYS, "ENOSYS" },
        { XEN_EROFS, "EROFS" }, { XEN_EBUSY, "EBUSY" },
        { XEN_EAGAIN, "EAGAIN" }, { XEN_EISCONN, "EISCONN" },
        { XEN_E2BIG, "E2BIG" }, { XEN_EPERM, "EPERM" },
    };
    unsigned int i;

    /* The names and order of xs_wire.h's xsd_errors[]; EINVAL first. */
    for ( i = 0; i < ARRAY_SIZE(names); i++ )
        if ( names[i].err == err )
            return names[i].s;
    return "EINVAL";
}

/* How many nul-terminated strings @body holds (xs_count_strings). */
static unsigned int count_strings(const char *body, unsigned int len)
{
    unsigned int i, n = 0;

    for ( i = 0; i < len; i++ )
        n += body[i] == '\0';
    return n;
}

/* Exactly one string, ending at the end (xenstored's onearg()). */
static const char *onearg(const char *body, unsigned int len)
{
    if ( !len || body[len - 1] != '\0' || strlen(body) != len - 1 )
        return NULL;
    return body;
}

/* A relative path is under the domain's own; then xenstored's checks. */
static int canonical(const char *path, char *buf, bool allow_special)
{
    if ( path[0] != '/' && path[0] != '@' )
        snprintf(buf, PATH_BUF, DOMAIN_PATH "/%s", path);
    else
        strlcpy(buf, path, PATH_BUF);
    return xs_path_valid(buf, allow_special) ? 0 : XEN_EINVAL;
}

static int parse_perms(const char *s, unsigned int nr, struct xs_perm *p)
{
    unsigned int i;

    for ( i = 0; i < nr; i++, s += strlen(s) + 1 )
    {
        switch ( s[0] )
        {
        case 'n': p[i].perm = XS_PERM_NONE; break;
        case 'r': p[i].perm = XS_PERM_READ; break;
        case 'w': p[i].perm = XS_PERM_WRITE; break;
        case 'b': p[i].perm = XS_PERM_READ | XS_PERM_WRITE; break;
        default: return XEN_EINVAL;
        }
        p[i].id = simple_strtoull(s + 1, NULL, 0, NULL);
    }
    return 0;
}

/* The requests that change the store: directly, or replayed at commit. */
int xs_apply(struct xs_ctx *c, uint32_t type, const char *body,
             unsigned int len, bool fire)
{
    char path[PATH_BUF];
    struct xs_perm perms[XS_QUOTA_PERMS + 1];
    const char *arg = onearg(body, len);
    struct xs_node *n;
    unsigned int nr, plen;
    int rc;

    switch ( type )
    {
    case XS_WRITE:
        if ( !count_strings(body, len) )
            return XEN_EINVAL;
        plen = strlen(body) + 1;
        if ( (rc = canonical(body, path, false)) ||
             (rc = xs_write_node(c, path, body + plen, len - plen, false)) )
            return rc;
        break;
    case XS_MKDIR:
        if ( !arg )
            return XEN_EINVAL;
        if ( (rc = canonical(arg, path, false)) ||
             (rc = xs_write_node(c, path, NULL, 0, true)) )
            return rc;
        break;
    case XS_RM:
        if ( !arg )
            return XEN_EINVAL;
        if ( (rc = canonical(arg, path, false)) )
            return rc;
        /* Watches hear of a removal before the subtree goes. */
        if ( fire && xs_lookup(c->tree, path) &&
             !xs_get(c, path, XS_PERM_WRITE, &n) )
        {
            xs_fire_watches(path, true);
            fire = false;
        }
        if ( (rc = xs_rm_node(c, path)) )
            return rc;
        break;
    case XS_SET_PERMS:
        if ( (nr = count_strings(body, len)) < 2 )
            return XEN_EINVAL;
        if ( --nr > XS_QUOTA_PERMS )
            return XEN_ENOSPC;
        if ( (rc = parse_perms(body + strlen(body) + 1, nr, perms)) ||
             (rc = canonical(body, path, false)) ||
             (rc = xs_set_perms_node(c, path, perms, nr)) )
            return rc;
        break;
    default:
        return XEN_EINVAL;
    }
    if ( fire )
        xs_fire_watches(path, false);
    return 0;
}

char xs_reply[XENSTORE_PAYLOAD_MAX + 1];

/* READ, DIRECTORY, DIRECTORY_PART, GET_PERMS: the reply in @reply. */
int xs_query(struct xs_ctx *c, uint32_t type, const char *body,
                 unsigned int len, unsigned int *rlen)
{
    char path[PATH_BUF];
    const struct xs_node *ch;
    struct xs_node *n;
    unsigned int i, off = 0, skip = 0, l;
    int rc;

    if ( type == XS_DIRECTORY_PART )
    {
        if ( count_strings(body, len) < 2 )
            return XEN_EINVAL;
        skip = simple_strtoull(body + strlen(body) + 1, NULL, 10, NULL);
    }
    else if ( !onearg(body, len) )
        return XEN_EINVAL;
    if ( (rc = canonical(body, path, false)) ||
         (rc = xs_get(c, path, XS_PERM_READ, &n)) )
        return rc;
    switch ( type )
    {
    case XS_READ:
        if ( n->value )
            memcpy(xs_reply, n->value->data, off = n->value->len);
        break;
    case XS_GET_PERMS:
        for ( i = 0; i < n->nr_perms; i++ )
            off += snprintf(xs_reply + off, sizeof(xs_reply) - off, "%c%u",
                            "nrwb"[n->perms[i].perm & 3], n->perms[i].id) + 1;
        break;
    case XS_DIRECTORY:
        for ( ch = n->children; ch; ch = ch->next, off += l )
            if ( off + (l = strlen(ch->name) + 1) > XENSTORE_PAYLOAD_MAX )
                return XEN_E2BIG;
            else
                memcpy(xs_reply + off, ch->name, l);
        break;
    case XS_DIRECTORY_PART:
        /* The generation, then whole names from byte @skip; "" at the end. */
        off = snprintf(xs_reply, sizeof(xs_reply), "%llx",
                       (unsigned long long)n->gen) + 1;
        for ( ch = n->children, i = 0; ch && i < skip; ch = ch->next )
            i += strlen(ch->name) + 1;
        for ( ; ch; ch = ch->next, off += l )
            if ( off + (l = strlen(ch->name) + 1) >= XENSTORE_PAYLOAD_MAX )
                break;
            else
                memcpy(xs_reply + off, ch->name, l);
        if ( !ch )
            xs_reply[off++] = '\0';
        break;
    }
    *rlen = off;
    return 0;
}

/* WATCH, UNWATCH: path (relative allowed, or "@...") and token. */
int xs_watch_request(const struct xsd_sockmsg *hdr, const char *body)
{
    char path[PATH_BUF];
    const char *token;
    int rc;

    if ( count_strings(body, hdr->len) < 2 )
        return XEN_EINVAL;
    token = body + strlen(body) + 1;
    if ( (rc = canonical(body, path, true)) )
        return rc;
    if ( hdr->type == XS_UNWATCH )
        return xs_watch_remove(path, token);
    if ( (rc = xs_watch_add(path, token, body[0] != '/' && body[0] != '@')) )
        return rc;
    /* The ack, then the initial firing (which no permission hides). */
    xs_queue_reply(XS_WATCH, hdr->req_id, hdr->tx_id, "OK", 3);
    xs_fire_one(body, token);
    return -1;
}
