/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptwr-l2 again, on a shim without the option: Xen's behaviour, every
 * store to the L2 is the guest's #PF, assist or not.
 */
#include "../ptwr-l2/main.c"
