/* SPDX-License-Identifier: GPL-2.0-only */
/* m2p's checks on a 6 GiB guest, its frames in runs around the PCI hole. */
#define M2P_LARGE 1
#include "../m2p/main.c"
