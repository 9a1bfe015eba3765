/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The build fails if a structure a compat guest passes untranslated
 * (pv/compat/same.h) has a 32-bit layout other than the 64-bit one: its
 * size and every member's offset and size, as Xen's CHECK_* macros.
 */
#include "pv/compat/layout.h"
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/grant_table.h>
#include <xen/physdev.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/version.h>

#define SAME_STRUCT(s) \
    BUILD_BUG_ON(sizeof(struct s) != COMPAT_SIZEOF(s))
#define SAME_FLEX(s, name, m) \
    BUILD_BUG_ON(offsetof(struct s, m) != COMPAT_OFFSET(s, name))
#define SAME_FIELD(s, name, m)                                          \
    SAME_FLEX(s, name, m);                                              \
    BUILD_BUG_ON(sizeof(((struct s *)0)->m) != COMPAT_MSIZE(s, name))

#include "pv/compat/same.h"
