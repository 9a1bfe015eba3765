/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the device vectors' table (arch/x86/vector.c): handed out
 * in order until none is left (never the compat hypercall gate's,
 * 0x82); given back and handed out again, the one
 * given back longest ago first; an interrupt on a vector nobody owns (a
 * removed device's late one) dispatched to no one; double and foreign
 * frees ignored.
 */
#include "tests/unit/unit.h"
#include "../../arch/x86/vector.c"

static unsigned int calls;
static void *seen;

static void handler(void *data)
{
    calls++;
    seen = data;
}

static void test_alloc_free(void)
{
    unsigned int v, n, a, b, c;
    int x, y;

    /* In order, but never the compat hypercall gate's. */
    for ( n = 0; (v = vector_alloc(handler, &x)); n++ )
        CHECK_EQ(v, DEVICE_VECTOR_FIRST + n +
                    (DEVICE_VECTOR_FIRST + n >= HYPERCALL_VECTOR));
    CHECK_EQ(n, NR_DEVICE_VECTORS - 1);
    CHECK(!vector_dispatch(HYPERCALL_VECTOR));
    vector_free(HYPERCALL_VECTOR);      /* never handed out: ignored */
    CHECK_EQ(vector_alloc(handler, &x), 0);

    /* A vector's interrupt reaches its handler with its data. */
    calls = 0;
    CHECK(vector_dispatch(DEVICE_VECTOR_FIRST + 7));
    CHECK_EQ(calls, 1);
    CHECK(seen == &x);

    /* Given back: nobody's (a late interrupt goes nowhere). */
    a = DEVICE_VECTOR_FIRST + 20;
    b = DEVICE_VECTOR_FIRST + 5;
    c = DEVICE_VECTOR_FIRST + 90;
    vector_free(a);
    vector_free(b);
    vector_free(c);
    vector_free(b);                     /* twice: ignored */
    vector_free(DEVICE_VECTOR_LAST + 1); /* not a device vector */
    vector_free(DEVICE_VECTOR_FIRST - 1);
    CHECK(!vector_dispatch(a));
    CHECK_EQ(calls, 1);

    /* Handed out again in the order given back. */
    CHECK_EQ(vector_alloc(handler, &y), a);
    CHECK_EQ(vector_alloc(handler, &y), b);
    CHECK_EQ(vector_alloc(handler, &y), c);
    CHECK_EQ(vector_alloc(handler, &y), 0);
    CHECK(vector_dispatch(b));
    CHECK(seen == &y);
    CHECK(!vector_dispatch(DEVICE_VECTOR_FIRST - 1));
    CHECK(!vector_dispatch(DEVICE_VECTOR_LAST + 1));
}

int main(void)
{
    RUN(test_alloc_free);
    UNIT_EXIT();
}
