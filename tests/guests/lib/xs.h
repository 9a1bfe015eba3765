/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small xenstore client for test kernels (the guest's side of
 * xen/io/xs_wire.h, as Mini-OS xenbus/xenbus.c): raw bytes onto the
 * request ring, whole messages off the response ring, watch events kept
 * aside, the store port kicked and the vCPU yielded while waiting.
 */
#ifndef GUEST_XS_H
#define GUEST_XS_H

#include "guest.h"
#include <xen/io/xs_wire.h>

extern struct xenstore_domain_interface *xs_intf;

/* Find the ring page (virt_base 0: a pfn is its address). */
bool xs_init(void);

/* Notify the backend (EVTCHNOP_send on start_info->store_evtchn). */
void xs_kick(void);

/* Put @len raw bytes on the request ring, waiting for room. */
void xs_put_raw(const void *data, unsigned int len);

/*
 * The next reply (not a watch event) into @body (nul-terminated, at
 * least XENSTORE_PAYLOAD_MAX + 1 bytes); its type, or -1 if none came.
 */
long xs_reply(struct xsd_sockmsg *hdr, char *body);

/* Send a request and wait for its reply; the reply's type. */
long xs_request(uint32_t type, uint32_t tx, const void *body,
                unsigned int len, char *reply, unsigned int *rlen);

/* A request of one string (nul included); the reply as a string. */
const char *xs_req_str(uint32_t type, uint32_t tx, const char *arg);
const char *xs_write(uint32_t tx, const char *path, const char *value);

/* XS_READ of @path outside a transaction, the reply copied aside. */
const char *xs_read_str(const char *path);
/*
 * Wait (yielding) until @path reads @want, @seconds of system time at
 * most: time, not tries, so a loaded host's slow backend still counts.
 */
bool xs_wait_value(const char *path, const char *want, unsigned int seconds);

/* Watch events received so far, "path|token" each. */
#define XS_EVENTS_MAX 32
extern unsigned int xs_nr_events;
extern char xs_events[XS_EVENTS_MAX][128];
bool xs_event_seen(const char *path_token);
/* Wait (kicking) until @n events have come. */
bool xs_wait_events(unsigned int n);

#endif /* GUEST_XS_H */
