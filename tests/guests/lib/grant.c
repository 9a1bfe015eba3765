/* SPDX-License-Identifier: GPL-2.0-only */
/* Grant-table helpers for test kernels (grant.h). */
#include "grant.h"

static uint8_t shared_win[GNT_MAP_FRAMES][PAGE_SIZE] __gnt_page;
static uint8_t status_win[PAGE_SIZE] __gnt_page;

grant_entry_v1_t *gnt_v1 = (grant_entry_v1_t *)shared_win;
grant_entry_v2_t *gnt_v2 = (grant_entry_v2_t *)shared_win;
grant_status_t *gnt_status = (grant_status_t *)status_win;

static unsigned int mapped;
static bool status_mapped;

void gnt_unmap_all(void)
{
    unsigned int i;

    for ( i = 0; i < mapped; i++ )
        remap_initial((unsigned long)shared_win[i]);
    if ( status_mapped )
        remap_initial((unsigned long)status_win);
    mapped = 0;
    status_mapped = false;
}

void gnt_setup(unsigned int nr)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = nr };
    struct gnttab_get_status_frames gs = { .dom = DOMID_SELF, .nr_frames = 1 };
    struct gnttab_get_version gv = { .dom = DOMID_SELF };
    xen_pfn_t frames[GNT_MAP_FRAMES];
    uint64_t sframe;
    unsigned int i;
    long rc;

    gnt_unmap_all();
    set_xen_guest_handle(st.frame_list, frames);
    rc = gnttab_op(GNTTABOP_setup_table, &st, 1);
    if ( rc || st.status )
        return test_error("setup_table: rc %ld status %d", rc, st.status);
    for ( i = 0; i < nr; i++ )
        if ( (rc = map_frame_at((unsigned long)shared_win[i], frames[i],
                                PTE_RW)) )
            return test_error("mapping grant frame %u: %ld", i, rc);
    mapped = nr;
    if ( gnttab_op(GNTTABOP_get_version, &gv, 1) || gv.version != 2 )
        return;
    set_xen_guest_handle(gs.frame_list, &sframe);
    rc = gnttab_op(GNTTABOP_get_status_frames, &gs, 1);
    if ( rc || gs.status )
        return test_error("get_status_frames: rc %ld status %d", rc,
                          gs.status);
    if ( (rc = map_frame_at((unsigned long)status_win, sframe, PTE_RW)) )
        return test_error("mapping the status frame: %ld", rc);
    status_mapped = true;
}

long gnt_set_version(unsigned int v)
{
    struct gnttab_set_version sv = { .version = v };

    return gnttab_op(GNTTABOP_set_version, &sv, 1);
}

void gnt_grant(unsigned int version, grant_ref_t ref, domid_t domid,
               unsigned long mfn, uint16_t extra)
{
    if ( version == 1 )
    {
        gnt_v1[ref].domid = domid;
        gnt_v1[ref].frame = mfn;
        __atomic_store_n(&gnt_v1[ref].flags, GTF_permit_access | extra,
                         __ATOMIC_SEQ_CST);
        return;
    }
    gnt_v2[ref].hdr.domid = domid;
    gnt_v2[ref].full_page.frame = mfn;
    __atomic_store_n(&gnt_v2[ref].hdr.flags, GTF_permit_access | extra,
                     __ATOMIC_SEQ_CST);
}

uint16_t gnt_status_bits(unsigned int version, grant_ref_t ref)
{
    uint16_t f = version == 1 ? gnt_v1[ref].flags : gnt_status[ref];

    return f & (GTF_reading | GTF_writing);
}

int16_t gnt_map1(struct gnttab_map_grant_ref *op, domid_t dom,
                 grant_ref_t ref, uint32_t flags, uint64_t host_addr)
{
    long rc;

    memset(op, 0, sizeof(*op));
    op->dom = dom;
    op->ref = ref;
    op->flags = flags;
    op->host_addr = host_addr;
    op->handle = 0xdead;
    rc = gnttab_op(GNTTABOP_map_grant_ref, op, 1);
    if ( rc )
        test_fail("map_grant_ref returned %ld", rc);
    return op->status;
}

int16_t gnt_unmap1(uint64_t host_addr, grant_handle_t handle,
                   uint64_t dev_bus_addr)
{
    struct gnttab_unmap_grant_ref op = {
        .host_addr = host_addr, .handle = handle,
        .dev_bus_addr = dev_bus_addr, .status = 77,
    };
    long rc = gnttab_op(GNTTABOP_unmap_grant_ref, &op, 1);

    if ( rc )
        test_fail("unmap_grant_ref returned %ld", rc);
    return op.status;
}
