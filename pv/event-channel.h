/* SPDX-License-Identifier: GPL-2.0-only */
/* Event channels: the ports bound at start of day (pv/event-channel.c). */
#ifndef PV_EVENT_CHANNEL_H
#define PV_EVENT_CHANNEL_H

/* As a toolstack would allocate them for a domU: xenstore, then console. */
#define EVTCHN_STORE_PORT   1
#define EVTCHN_CONSOLE_PORT 2

/* pv/console.c: copy what the guest put in its console ring to ours. */
void pv_console_ring_drain(void);

#endif /* PV_EVENT_CHANNEL_H */
