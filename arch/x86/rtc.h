/* SPDX-License-Identifier: GPL-2.0-only */
/* The CMOS real-time clock. */
#ifndef ARCH_X86_RTC_H
#define ARCH_X86_RTC_H

#include "shim/lib.h"

/* Seconds since 1970-01-01 UTC (the RTC is taken as UTC); 0 if unusable. */
uint64_t rtc_read_seconds(void);

#endif /* ARCH_X86_RTC_H */
