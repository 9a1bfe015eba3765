/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CRC-32 (IEEE 802.3, reflected: gzip's, xz's and GPT's), a byte at a time
 * from a table built on first use.  Pure: host tests and fuzzers include
 * this file.
 */
#include "shim/lib.h"

uint32_t crc32(uint32_t crc, const void *buf, size_t len)
{
    static uint32_t table[256];
    const uint8_t *p = buf;
    unsigned int i, j;

    if ( !table[1] )
        for ( i = 0; i < 256; i++ )
        {
            uint32_t c = i;

            for ( j = 0; j < 8; j++ )
                c = (c >> 1) ^ (c & 1 ? 0xedb88320u : 0);
            table[i] = c;
        }
    crc = ~crc;
    while ( len-- )
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}
