/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_xen_version: every subop a PV kernel asks for, with the
 * results and errors of Xen's do_xen_version() (common/kernel.c).
 */
#include "guest.h"

const char test_title[] = "xen_version: every subop, and bad arguments";

/* A string the hypervisor wrote into @buf: NUL-terminated within it. */
static void check_string(const char *what, const char *buf, size_t size)
{
    if ( strnlen(buf, size) == size )
        test_fail("%s: no NUL within %zu bytes", what, size);
    else
        printf("  %-16s \"%s\"\n", what, buf);
}

static void test_strings(void)
{
    static xen_extraversion_t extra;
    static xen_compile_info_t info;
    static xen_capabilities_info_t caps;
    static xen_changeset_info_t changeset;
    static xen_commandline_t cmdline;

    check_rc(hypercall_xen_version(XENVER_extraversion, extra), 0);
    check_string("extraversion", extra, sizeof(extra));

    check_rc(hypercall_xen_version(XENVER_compile_info, &info), 0);
    check_string("compiler", info.compiler, sizeof(info.compiler));
    check_string("compile_by", info.compile_by, sizeof(info.compile_by));
    check_string("compile_domain", info.compile_domain,
                 sizeof(info.compile_domain));
    check_string("compile_date", info.compile_date, sizeof(info.compile_date));

    check_rc(hypercall_xen_version(XENVER_capabilities, caps), 0);
    check_string("capabilities", caps, sizeof(caps));
    if ( !strstr(caps, GUEST_SI_MAGIC) )
        test_fail("capabilities lack " GUEST_SI_MAGIC);

    check_rc(hypercall_xen_version(XENVER_changeset, changeset), 0);
    check_string("changeset", changeset, sizeof(changeset));

    /* Xen gives a domain without the privilege "<denied>" here. */
    check_rc(hypercall_xen_version(XENVER_commandline, cmdline), 0);
    check_string("commandline", cmdline, sizeof(cmdline));
}

static void test_numbers(void)
{
    xen_platform_parameters_t params = { 0 };
    xen_domain_handle_t handle;
    long ver = hypercall_xen_version(XENVER_version, NULL);

    printf("  version          %ld.%ld\n", ver >> 16, ver & 0xffff);
    if ( ver < 0x40000 )
        test_fail("XENVER_version: 0x%lx, expected 4.0 or later", ver);

    /* The argument is ignored: even a bad pointer gets the version. */
    check_rc(hypercall_xen_version(XENVER_version, BAD_UNMAPPED), ver);

    check_rc(hypercall_xen_version(XENVER_pagesize, NULL), PAGE_SIZE);
    check_rc(hypercall_xen_version(XENVER_pagesize, &params), -XEN_EINVAL);

    check_rc(hypercall_xen_version(XENVER_platform_parameters, &params), 0);
    if ( params.virt_start != HYPERVISOR_VIRT_START )
        test_fail("platform_parameters: virt_start 0x%lx, expected 0x%lx",
                  params.virt_start, HYPERVISOR_VIRT_START);

    check_rc(hypercall_xen_version(XENVER_guest_handle, handle), 0);
}

static void test_features(void)
{
    xen_feature_info_t fi = { .submap_idx = 0 };

    check_rc(hypercall_xen_version(XENVER_get_features, &fi), 0);
    printf("  features[0]      0x%08x\n", fi.submap);
    if ( fi.submap_idx != 0 )
        test_fail("get_features changed submap_idx to %u", fi.submap_idx);

    /* What Xen gives every PV guest; Linux 6.x won't boot without them. */
    for ( unsigned int f = XENFEAT_mmu_pt_update_preserve_ad;
          f <= XENFEAT_gnttab_map_avail_bits; f++ )
        if ( !(fi.submap & (1U << f)) )
            test_fail("get_features: no feature %u for a PV guest", f);

    /* A PV guest is neither translated nor HVM. */
    if ( fi.submap & (1U << XENFEAT_auto_translated_physmap) )
        test_fail("get_features: auto_translated_physmap for a PV guest");
    if ( fi.submap & (1U << XENFEAT_hvm_callback_vector) )
        test_fail("get_features: hvm_callback_vector for a PV guest");

    fi.submap_idx = XENFEAT_NR_SUBMAPS;
    check_rc(hypercall_xen_version(XENVER_get_features, &fi), -XEN_EINVAL);
}

/*
 * NULL asks for the size.  A build id is optional (-ENODATA without one)
 * and Xen refuses it to an unprivileged domain (-EPERM).
 */
static void test_build_id(void)
{
    static uint8_t buf[sizeof(xen_build_id_t) + 256]
        __attribute__((aligned(8)));
    xen_build_id_t *id = (xen_build_id_t *)buf;
    long size = hypercall_xen_version(XENVER_build_id, NULL);

    if ( size == -XEN_EPERM )
    {
        id->len = sizeof(buf) - sizeof(*id);
        check_rc(hypercall_xen_version(XENVER_build_id, id), -XEN_EPERM);
        printf("  build_id         refused (-EPERM)\n");
        return;
    }

    id->len = 0;
    check_rc(hypercall_xen_version(XENVER_build_id, id), -XEN_EINVAL);

    if ( size == -XEN_ENODATA )
    {
        id->len = sizeof(buf) - sizeof(*id);
        check_rc(hypercall_xen_version(XENVER_build_id, id), -XEN_ENODATA);
        printf("  build_id         none (-ENODATA)\n");
        return;
    }

    if ( size <= 0 || size > (long)(sizeof(buf) - sizeof(*id)) )
    {
        test_fail("XENVER_build_id(NULL): %ld", size);
        return;
    }

    id->len = size - 1;
    check_rc(hypercall_xen_version(XENVER_build_id, id), -XEN_ENOBUFS);
    id->len = size;
    check_rc(hypercall_xen_version(XENVER_build_id, id), size);
    printf("  build_id         %ld bytes\n", size);
}

static void test_bad_arguments(void)
{
    void *const bad[] = { BAD_UNMAPPED, BAD_NONCANONICAL, BAD_XEN };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
    {
        check_rc(hypercall_xen_version(XENVER_extraversion, bad[i]),
                 -XEN_EFAULT);
        check_rc(hypercall_xen_version(XENVER_get_features, bad[i]),
                 -XEN_EFAULT);
    }
    check_rc(hypercall_xen_version(XENVER_compile_info, BAD_UNMAPPED),
             -XEN_EFAULT);
    check_rc(hypercall_xen_version(XENVER_capabilities, BAD_XEN),
             -XEN_EFAULT);
    check_rc(hypercall_xen_version(XENVER_platform_parameters, BAD_UNMAPPED),
             -XEN_EFAULT);
    check_rc(hypercall_xen_version(XENVER_guest_handle, BAD_NONCANONICAL),
             -XEN_EFAULT);

    /* Xen 4.17 ends at XENVER_build_id (10); later ones add 11-14. */
    check_rc(hypercall_xen_version(64, NULL), -XEN_ENOSYS);
    check_rc(hypercall_xen_version(-1, NULL), -XEN_ENOSYS);
}

void test_main(void)
{
    test_numbers();
    test_strings();
    test_features();
    test_build_id();
    test_bad_arguments();

    test_success();
}
