/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The grant table at its largest, 64 frames (32768 v1 entries), each
 * entry with its active entry in the shim, mapped and unmapped at refs
 * from the first frame to the last while the maptrack (the handles)
 * grows beside them: every map and unmap answered as for the first
 * entries, the frames' references right afterwards (mm-audit).  The
 * active entries' frames must all fit the table's array of them (85 to
 * a page: 386 frames), not spill into the maptrack's beside it.
 */
#include "guest.h"
#include "grant.h"
#include "mm.h"

const char test_title[] = "grant table of 64 frames: maps at every end";

#define FRAMES      64
#define ENTS        (FRAMES * PAGE_SIZE / sizeof(grant_entry_v1_t))

static uint8_t shared[PAGE_SIZE] __gnt_page;    /* one table frame */
static uint8_t data[PAGE_SIZE] __gnt_page;      /* what is granted */
static uint8_t win[8][PAGE_SIZE] __gnt_page;    /* where it is mapped */

static const grant_ref_t refs[] = {
    9, 511, 512, 21759, 21760, 21800, 21845, 30000, 32000, ENTS - 1,
};
#define NR  (sizeof(refs) / sizeof(refs[0]))

static xen_pfn_t frames[FRAMES];

/* Entry @ref, in its table frame mapped at shared[]. */
static grant_entry_v1_t *entry(grant_ref_t ref)
{
    check_rc(map_frame_at((unsigned long)shared,
                          frames[ref / (PAGE_SIZE / sizeof(grant_entry_v1_t))],
                          PTE_RW), 0);
    return (grant_entry_v1_t *)shared +
           ref % (PAGE_SIZE / sizeof(grant_entry_v1_t));
}

void test_main(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = FRAMES };
    struct gnttab_map_grant_ref op[NR];
    unsigned long data_mfn = virt_to_mfn(data);
    grant_entry_v1_t *e;
    unsigned int i, k;

    set_xen_guest_handle(st.frame_list, frames);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);

    /*
     * Granted and mapped a few at a time (so handles are taken and
     * given back, the maptrack growing between), each map seen in its
     * entry's flags and through its window.
     */
    for ( i = 0; i < NR; i++ )
    {
        e = entry(refs[i]);
        e->domid = GNT_SELF_ID;
        e->frame = data_mfn;
        __atomic_store_n(&e->flags, GTF_permit_access, __ATOMIC_SEQ_CST);
        k = i % 8;
        if ( i >= 8 )
            check_rc(gnt_unmap1((unsigned long)win[k], op[i - 8].handle, 0),
                     GNTST_okay);
        data[i] = 0xa0 + i;
        check_rc(gnt_map1(&op[i], GNT_SELF_ID, refs[i], GNTMAP_host_map,
                          (unsigned long)win[k]), GNTST_okay);
        check_rc(virt_to_mfn(win[k]), data_mfn);
        invlpg_local((unsigned long)win[k]);
        check_rc(*(volatile uint8_t *)&win[k][i], 0xa0 + i);
        check_rc(entry(refs[i])->flags & (GTF_reading | GTF_writing),
                 GTF_reading | GTF_writing);
    }
    for ( i = NR - 8; i < NR; i++ )
        check_rc(gnt_unmap1((unsigned long)win[i % 8], op[i].handle, 0),
                 GNTST_okay);
    for ( i = 0; i < NR; i++ )
    {
        e = entry(refs[i]);
        check_rc(e->flags & (GTF_reading | GTF_writing), 0);
        __atomic_store_n(&e->flags, 0, __ATOMIC_SEQ_CST);
    }
    for ( i = 0; i < 8; i++ )
        check_rc(remap_initial((unsigned long)win[i]), 0);
    check_rc(remap_initial((unsigned long)shared), 0);
    test_success();
}
