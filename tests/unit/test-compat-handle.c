/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/compat/handle.h: the range Xen's compat_handle_okay()
 * allows a 32-bit guest's array, and elements of guest arrays of frame
 * numbers, 4 bytes from a 32-bit guest and 8 from a 64-bit one, read
 * zero-extended and written only when they fit.
 */
#include "tests/unit/compat-test.h"
#include "pv/compat/handle.h"

struct domain dom;
struct vcpu *host_current_vcpu = &dom.vcpu[0];

/* The guest's memory is the test's: a plain copy never faults here. */
size_t raw_copy_from_user(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
    return 0;
}

size_t raw_copy_to_user(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
    return 0;
}

static void test_compat_pfns(void)
{
    uint8_t *list = calloc(4, COMPAT_SIZEOF(xen_pfn_t));
    unsigned long va = (unsigned long)list, v = 0;

    CHECK_EQ(XEN_PFN_SIZE(true), 4);
    CHECK_EQ(XEN_PFN_SIZE(false), sizeof(xen_pfn_t));
    CHECK_EQ(copy_elem_to_guest(va, 1, 0xfffffffeUL, XEN_PFN_SIZE(true)), 0);
    CHECK_EQ(copy_elem_to_guest(va, 2, 0x12345678UL, XEN_PFN_SIZE(true)), 0);
    /* Element 1 is bytes 4-7, little-endian; its neighbours untouched. */
    CHECK_EQ(list[3], 0);
    CHECK_EQ(list[4], 0xfe);
    CHECK_EQ(list[7], 0xff);
    CHECK_EQ(list[8], 0x78);
    CHECK_EQ(list[11], 0x12);
    CHECK_EQ(copy_elem_from_guest(&v, va, 1, XEN_PFN_SIZE(true)), 0);
    CHECK_EQ(v, 0xfffffffeUL);          /* zero-, not sign-extended */
    CHECK_EQ(copy_elem_from_guest(&v, va, 2, XEN_PFN_SIZE(true)), 0);
    CHECK_EQ(v, 0x12345678UL);

    /* Too wide for the element: refused, nothing written. */
    CHECK_EQ(copy_elem_to_guest(va, 3, 0x100000000UL, XEN_PFN_SIZE(true)),
             -XEN_ERANGE);
    CHECK_EQ(list[12] | list[13] | list[14] | list[15], 0);
    free(list);
}

static void test_native_pfns(void)
{
    xen_pfn_t list[3] = { 0, 0, 0 };
    unsigned long va = (unsigned long)list, v = 0;

    CHECK_EQ(copy_elem_to_guest(va, 1, 0x123456789abcUL,
                                XEN_PFN_SIZE(false)), 0);
    CHECK_EQ(list[1], 0x123456789abcUL);
    CHECK_EQ(list[0] | list[2], 0);
    CHECK_EQ(copy_elem_from_guest(&v, va, 1, XEN_PFN_SIZE(false)), 0);
    CHECK_EQ(v, 0x123456789abcUL);
}

/* An address no guest may name: -EFAULT, as every guest access. */
static void test_bad_address(void)
{
    unsigned long v = 7;

    CHECK_EQ(copy_elem_from_guest(&v, HYPERVISOR_VIRT_START, 0, 4),
             -XEN_EFAULT);
    CHECK_EQ(v, 7);
    CHECK_EQ(copy_elem_to_guest(HYPERVISOR_VIRT_START, 0, 1, 4),
             -XEN_EFAULT);
    CHECK_EQ(copy_elem_from_guest(&v, 0x1000, ~0UL / 2, 4), -XEN_EFAULT);
}

/* Below the hole (0xf5800000, xen-x86_32.h), to its last byte. */
static void test_handle_okay(void)
{
    const unsigned long hole = 0xf5800000UL;

    CHECK_EQ(COMPAT_HYPERVISOR_VIRT_START, hole);
    CHECK(compat_handle_okay(0, 1, 4));
    CHECK(compat_handle_okay(hole - 4, 1, 4));
    CHECK(!compat_handle_okay(hole - 3, 1, 4));
    CHECK(compat_handle_okay(hole - 4096, 512, 8));
    CHECK(!compat_handle_okay(hole - 4096, 513, 8));
    CHECK(!compat_handle_okay(hole, 1, 1));
    CHECK(!compat_handle_okay(0xfffff000UL, 1, 4));
    /* No elements: the address alone, as Xen's __compat_access_ok(). */
    CHECK(compat_handle_okay(hole - 1, 0, 4));
    CHECK(!compat_handle_okay(hole, 0, 4));
    /* A byte count that doesn't fit 32 bits, wrapping or not. */
    CHECK(!compat_handle_okay(0, 0x40000000UL, 4));
    CHECK(!compat_handle_okay(0, 1UL << 62, 4));
    CHECK(!compat_handle_okay(0x1000, ~0UL / 4, 4));
}

int main(void)
{
    RUN(test_handle_okay);
    RUN(test_compat_pfns);
    RUN(test_native_pfns);
    RUN(test_bad_address);
    UNIT_EXIT();
}
