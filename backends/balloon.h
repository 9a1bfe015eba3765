/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's memory balloon toward the rest of the shim: the VM's
 * virtio-balloon (drivers/balloon.h) driving the guest's memory target as
 * the toolstack's xl mem-set does.  Internals: backends/balloon/.
 */
#ifndef BACKENDS_BALLOON_H
#define BACKENDS_BALLOON_H

/* Once the guest is built and xenstore is up; nothing without a device. */
void balloon_init(void);

/* BALLOON_SOFTIRQ (CPU 0): follow the host's wish, a batch at a time. */
void balloon_work(void);

/* The 'b' debug key: the host's wish, what it has, the guest's target. */
void balloon_dump(void);

#endif /* BACKENDS_BALLOON_H */
