/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat tests' fixtures as a 32-bit guest lays them out: compiled
 * with gcc -m32 against Debian's Xen headers into data only, which the
 * Makefile converts to an x86-64 object the host tests link (no 32-bit
 * libc involved).  Each fx32_x holds the bytes, fx32_x_size the -m32
 * sizeof.  See compat-fixtures.h.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/grant_table.h>
#include <xen/memory.h>
#include <xen/physdev.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/version.h>
#include "tests/unit/compat-fixtures.h"

#ifndef __i386__
#error "compile with -m32"
#endif

#define FIXTURE(type, name, init)                                       \
    extern const type fx32_##name;                                      \
    const type fx32_##name = init;                                      \
    extern const uint32_t fx32_##name##_size;                           \
    const uint32_t fx32_##name##_size = sizeof(type);

#define XLAT(type, name) FIXTURE(type, name, FX32_##name)
#define SAME(type, name) FIXTURE(type, name, FXS_##name)

COMPAT_FIXTURES(XLAT)
COMPAT_SAME_FIXTURES(SAME)
