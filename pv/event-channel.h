/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The start-of-day devices: the event channel ports bound for the
 * backends (pv/event/event-channel.c), and the console page.
 */
#ifndef PV_EVENT_CHANNEL_H
#define PV_EVENT_CHANNEL_H

/* As a toolstack would allocate them for a domU: xenstore, then console. */
#define EVTCHN_STORE_PORT   1
#define EVTCHN_CONSOLE_PORT 2

/*
 * pv/console.c: the guest's console page (xen/io/console.h), mapped in
 * the shim, for the console backend; NULL before the guest is built.
 */
struct xencons_interface;
struct xencons_interface *pv_console_ring(void);

#endif /* PV_EVENT_CHANNEL_H */
