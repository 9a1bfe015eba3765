/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of arch/x86/nospec.h: array_index_nospec() keeps an index
 * below its bound and makes any other 0, for every width the shim uses
 * it with and at the edges of the unsigned compare.
 */
#include <stdint.h>
#include "tests/unit/unit.h"

#include "arch/x86/nospec.h"

static void test_mask(void)
{
    CHECK_EQ(array_index_mask_nospec(0, 1), ~0UL);
    CHECK_EQ(array_index_mask_nospec(1, 1), 0);
    CHECK_EQ(array_index_mask_nospec(4095, 4096), ~0UL);
    CHECK_EQ(array_index_mask_nospec(4096, 4096), 0);
    CHECK_EQ(array_index_mask_nospec(~0UL, 4096), 0);
    CHECK_EQ(array_index_mask_nospec(~0UL - 1, ~0UL), ~0UL);
    CHECK_EQ(array_index_mask_nospec(0, 0), 0);
    CHECK_EQ(array_index_mask_nospec(1UL << 63, 1UL << 63), 0);
}

static void test_index(void)
{
    uint32_t port = 1023, big = 0x80000000u;
    unsigned int vcpu = 3;
    uint16_t h = 7;

    CHECK_EQ(array_index_nospec(port, 1024u), 1023);
    CHECK_EQ(array_index_nospec(port + 1, 1024u), 0);
    CHECK_EQ(array_index_nospec(big, 1024u), 0);
    CHECK_EQ(array_index_nospec(vcpu, 4u), 3);
    CHECK_EQ(array_index_nospec(vcpu, 3u), 0);
    CHECK_EQ(array_index_nospec(h, 8u), 7);
    CHECK_EQ(array_index_nospec(h, 7u), 0);
    CHECK_EQ(sizeof(array_index_nospec(h, 8u)), sizeof(h));
}

int main(void)
{
    RUN(test_mask);
    RUN(test_index);
    UNIT_EXIT();
}
