/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The VM's memory balloon toward its user (backends/balloon.c): how many
 * 4 KiB pages the host wants the VM to give it (QEMU's `balloon`,
 * libvirt's `virsh setmem`), and the frames handed to the host and taken
 * back, a batch at a time.  One device at most; without one every call
 * says so (balloon_dev_present() false) and nothing is ever handed over.
 * The device raises BALLOON_SOFTIRQ on CPU 0 when the host's wish
 * changes or it has finished with a batch; its user calls these from
 * that softirq alone.
 */
#ifndef DRIVERS_BALLOON_H
#define DRIVERS_BALLOON_H

#include "shim/lib.h"

/* Frames in one batch (the pfn array the device reads: one per page). */
#define BALLOON_BATCH   256

bool balloon_dev_present(void);
/* The pages the host wants the VM to have given it. */
unsigned long balloon_dev_wanted(void);
/* Tell the host how many pages it has now (what it shows as "actual"). */
void balloon_dev_set_actual(unsigned long pages);
/*
 * Hand the host @n (at most BALLOON_BATCH) frames (@give: it may drop
 * their contents and take their memory) or tell it the VM uses them
 * again (!@give); false if a batch is still with the device.  The frames
 * are the host's from the call on, the VM's again only once
 * balloon_dev_idle() says the batch is done.
 */
bool balloon_dev_post(bool give, const uint32_t *pfns, unsigned int n);
/* No batch with the device (the last one, if any, is done). */
bool balloon_dev_idle(void);
/* For the 'b' key: the device's queues. */
void balloon_dev_dump(void);

#endif /* DRIVERS_BALLOON_H */
