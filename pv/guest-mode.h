/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest kernel and guest user mode (pv/guest-mode.c): this CPU's cstar
 * and sysenter entries, and the switch between the two modes (page
 * tables, %gs bases), as Xen's toggle_guest_mode().
 */
#ifndef PV_GUEST_MODE_H
#define PV_GUEST_MODE_H

struct vcpu;

void pv_user_cpu_init(void);
void pv_toggle_guest_mode(struct vcpu *v);

#endif /* PV_GUEST_MODE_H */
