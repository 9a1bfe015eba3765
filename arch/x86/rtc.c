/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wall-clock time from the CMOS RTC (MC146818 registers 0x00-0x09, 0x32
 * century, status B bit 2 binary / bit 1 24-hour), for the guest's
 * shared_info wallclock.
 */
#include "arch/x86/io.h"
#include "arch/x86/rtc.h"

static uint8_t cmos(uint8_t reg)
{
    outb(reg, 0x70);
    return inb(0x71);
}

static unsigned int bcd(uint8_t v, bool binary)
{
    return binary ? v : (v >> 4) * 10 + (v & 0xf);
}

/* Days from 1970-01-01 to y-m-d (Gregorian), as mktime would count. */
static uint64_t days_since_epoch(unsigned int y, unsigned int m,
                                 unsigned int d)
{
    /* Shift the year to start in March so the leap day comes last. */
    if ( m <= 2 )
    {
        y--;
        m += 12;
    }
    return 365ULL * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 +
           d - 1 - 719468;
}

uint64_t rtc_read_seconds(void)
{
    unsigned int spins = 100000, sec, min, hour, day, mon, year, cent;
    uint8_t b, h;
    bool binary;

    /* Wait out an update in progress (bounded: no RTC means no time). */
    while ( (cmos(0x0a) & 0x80) && --spins )
        ;
    b = cmos(0x0b);
    binary = b & 0x04;
    sec = bcd(cmos(0x00), binary);
    min = bcd(cmos(0x02), binary);
    h = cmos(0x04);
    if ( b & 0x02 )                         /* 24-hour */
        hour = bcd(h, binary);
    else                                    /* 12-hour, bit 7 = PM */
        hour = bcd(h & 0x7f, binary) % 12 + (h & 0x80 ? 12 : 0);
    day = bcd(cmos(0x07), binary);
    mon = bcd(cmos(0x08), binary);
    year = bcd(cmos(0x09), binary);
    cent = bcd(cmos(0x32), binary);
    year += (cent >= 19 && cent <= 30 ? cent : 20) * 100;

    if ( !mon || mon > 12 || !day || day > 31 || hour > 23 || min > 59 ||
         sec > 60 )
        return 0;
    return days_since_epoch(year, mon, day) * 86400 + hour * 3600 +
           min * 60 + sec;
}
