/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's side of its console ring (xen/io/console.h), as Linux's
 * hvc_xen uses it: write into out[], read from in[], notify the port.
 */
#ifndef GUEST_CONS_RING_H
#define GUEST_CONS_RING_H

#include "guest.h"
#include <xen/io/console.h>

/* The console page (virt_base 0: found through the p2m), or NULL. */
struct xencons_interface *cons_ring(void);
/* Copy @s into out[] (no room check: tests write little); no notify. */
void cons_ring_put(struct xencons_interface *r, const char *s);
/* Take up to @max bytes of in[] and publish in_cons; no notify. */
unsigned int cons_ring_get(struct xencons_interface *r, char *buf,
                           unsigned int max);
/* EVTCHNOP_send on the console port. */
long cons_ring_notify(void);

#endif /* GUEST_CONS_RING_H */
