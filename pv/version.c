/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_xen_version, as xen/common/kernel.c do_xen_version(): we
 * answer as the Xen whose public headers we implement (4.17).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/version.h>
#include "pv/build/build.h"
#include "pv/domain.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "shim/boot-info.h"
#include "shim/version.h"

#define EXTRAVERSION "-pvshim"

extern const char __note_gnu_build_id_start[], __note_gnu_build_id_end[];

/* The GNU build-id note's descriptor (ELF note: name "GNU", type 3). */
static unsigned int build_id(const void **p)
{
    const uint32_t *n = (const void *)__note_gnu_build_id_start;

    if ( __note_gnu_build_id_end - __note_gnu_build_id_start < 16 ||
         n[0] != 4 || n[2] != 3 )
        return 0;
    *p = (const char *)(n + 3) + 4;
    return n[1];
}

static long get_features(unsigned long arg)
{
    xen_feature_info_t fi;

    if ( copy_from_guest(&fi, arg, sizeof(fi)) )
        return -XEN_EFAULT;
    if ( fi.submap_idx >= XENFEAT_NR_SUBMAPS )
        return -XEN_EINVAL;
    fi.submap = pv_features_submap(fi.submap_idx);
    /* Xen's kernel.c: the pae_extended_cr3 VM assist is this feature. */
    if ( fi.submap_idx == 0 &&
         (dom.vm_assist & (1UL << VMASST_TYPE_pae_extended_cr3)) )
        fi.submap |= 1U << XENFEAT_pae_pgdir_above_4gb;
    return copy_to_guest(arg, &fi, sizeof(fi));
}

static long get_build_id(unsigned long arg)
{
    xen_build_id_t hdr;
    const void *p;
    unsigned int sz;

    /* Xen's order: the argument first, then whether there is an id. */
    if ( arg )
    {
        if ( copy_from_guest(&hdr, arg, sizeof(hdr)) )
            return -XEN_EFAULT;
        if ( hdr.len == 0 )
            return -XEN_EINVAL;
    }
    if ( !(sz = build_id(&p)) )
        return -XEN_ENODATA;
    if ( !arg )
        return sz;                      /* a NULL handle asks the size */
    if ( sz > hdr.len )
        return -XEN_ENOBUFS;
    if ( copy_to_guest(arg + offsetof(xen_build_id_t, buf), p, sz) )
        return -XEN_EFAULT;
    return sz;
}

long __hot_text do_xen_version(unsigned long cmd, unsigned long arg)
{
    union {
        xen_extraversion_t extra;
        xen_compile_info_t info;
        xen_capabilities_info_t caps;
        xen_changeset_info_t changeset;
        xen_platform_parameters_t params;
        xen_domain_handle_t handle;
        xen_commandline_t cmdline;
    } u;

    /* XENVER_version first and without touching u: it's the hot one. */
    if ( cmd == XENVER_version )
        return (XEN_MAJOR << 16) | XEN_MINOR;

    memset(&u, 0, sizeof(u));
    switch ( cmd )
    {
    case XENVER_extraversion:
        strlcpy(u.extra, EXTRAVERSION, sizeof(u.extra));
        return copy_to_guest(arg, u.extra, sizeof(u.extra));
    case XENVER_compile_info:
        strlcpy(u.info.compiler, PVSHIM_COMPILER, sizeof(u.info.compiler));
        strlcpy(u.info.compile_by, "pvshim", sizeof(u.info.compile_by));
        strlcpy(u.info.compile_domain, "", sizeof(u.info.compile_domain));
        strlcpy(u.info.compile_date, PVSHIM_VERSION,
                sizeof(u.info.compile_date));
        return copy_to_guest(arg, &u.info, sizeof(u.info));
    case XENVER_capabilities:
        /* Both PV ABIs, as Xen on x86-64 lists them (no HVM here). */
        strlcpy(u.caps, "xen-3.0-x86_64 xen-3.0-x86_32p", sizeof(u.caps));
        return copy_to_guest(arg, u.caps, sizeof(u.caps));
    case XENVER_changeset:
        strlcpy(u.changeset, PVSHIM_VERSION, sizeof(u.changeset));
        return copy_to_guest(arg, u.changeset, sizeof(u.changeset));
    case XENVER_platform_parameters:
        u.params.virt_start = HYPERVISOR_VIRT_START;
        return copy_to_guest(arg, &u.params, sizeof(u.params));
    case XENVER_get_features:
        return get_features(arg);
    case XENVER_pagesize:
        return arg ? -XEN_EINVAL : 4096;
    case XENVER_guest_handle:
        return copy_to_guest(arg, u.handle, sizeof(u.handle));
    case XENVER_commandline:
        strlcpy(u.cmdline, boot_info.cmdline, sizeof(u.cmdline));
        return copy_to_guest(arg, u.cmdline, sizeof(u.cmdline));
    case XENVER_build_id:
        return get_build_id(arg);
    default:
        return -XEN_ENOSYS;
    }
}

/* A 32-bit guest: its hole starts at the compat one; the rest is alike. */
long compat_xen_version(unsigned long cmd, unsigned long arg)
{
    struct xen_platform_parameters n = {
        .virt_start = COMPAT_HYPERVISOR_VIRT_START,
    };
    uint8_t c[COMPAT_SIZEOF(xen_platform_parameters)];

    if ( cmd != XENVER_platform_parameters )
        return do_xen_version(cmd, arg);
    xlat_platform_parameters_to_compat(c, &n);
    return copy_to_guest(arg, c, sizeof(c));
}
