/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcall-fuzz's own state (main.c includes this file, then aimed.c): a
 * pool of frames, some of them pinned page tables, windows it remaps,
 * its grant table's entries and the handles of its maps; choosing among
 * them, and the upkeep: set-up, a tidy-up when most of the pool is gone,
 * grant version switches, and putting everything back at the end.
 *
 * What calls may write, map, pin, grant or give away: pool frames (given
 * back by decrease_reservation or a failed transfer, replaced by
 * populate_physmap / increase_reservation frames), the windows' own
 * frames (data only: never a page table, never given away), the windows'
 * L1 entries, the L2 entries of "hole", frames that aren't the guest's,
 * and now and then the frames of its grant table that it doesn't map and
 * frames it gave back (the shim may have made them the grant table's
 * since).  This kernel's own frames are only ever read (copy sources);
 * nothing that maps it or its stacks is named.
 */

#define NR_POOL         24
#define NR_WIN          4
#define NR_HOLE_VAS     4
#define NR_REFS         32
#define REF_FIRST       4       /* 4-7 are reserved: kept across versions */
#define NR_MAPS         64

static uint8_t win[NR_WIN][PAGE_SIZE] __page_aligned;
static unsigned long win_mfn[NR_WIN];
static uint64_t win_l1e[NR_WIN];        /* their entries' machine addresses */
static unsigned long hole;              /* 2 MiB past the start of day */
static uint64_t hole_l2e;               /* hole's L2 entry, 3 more after it */

static unsigned long pool[NR_POOL];     /* INVALID_MFN: lost */
static uint8_t pool_level[NR_POOL];     /* last pinned as (0: data) */
static unsigned long junk[6];           /* frames that aren't the guest's */
/*
 * Frames of ours, only ever read: code and data, never a page table (a
 * pool L1 with a copy of our bootstrap L1 in the hole would map this
 * kernel where random pointers of the other calls may land).
 */
static unsigned long kernel_frames[4];
static unsigned long lost, gained;

static unsigned int gnt_version = 1;

/* What map_grant_ref gave: kept for unmaps, reused when stale too. */
static struct map_rec {
    grant_handle_t handle;
    grant_ref_t ref;
    uint32_t flags;
    uint64_t host_addr, dev_bus_addr;
    bool live;
} maps[NR_MAPS];
static unsigned int next_map;

static unsigned long cur_iter;          /* the loop's, for messages */

/*
 * Frames that aren't the pool's but may be ours: the grant table's (the
 * shim shares them with us, setup_table and get_status_frames tell
 * which), and pool frames we gave back (since taken again by us, or by
 * the shim for our grant table, or free).
 */
static unsigned long gnt_frames[8], stale[8];
static unsigned int next_gnt_frame, next_stale;
/* The grant frames gnt_setup() maps: the test needs them. */
static unsigned long gnt_mapped[2];

/* ---------------------------------------------------------- frames */

static int pool_find(unsigned long mfn)
{
    for ( unsigned int i = 0; i < NR_POOL; i++ )
        if ( pool[i] == mfn )
            return i;
    return -1;
}

static void pool_lose(unsigned long mfn)
{
    int i = pool_find(mfn);

    if ( i >= 0 )
    {
        pool[i] = INVALID_MFN;
        stale[next_stale++ % ARRAY_SIZE(stale)] = mfn;
        lost++;
    }
}

static void note_gnt_frame(unsigned long mfn)
{
    for ( unsigned int i = 0; i < ARRAY_SIZE(gnt_frames); i++ )
        if ( gnt_frames[i] == mfn )
            return;
    gnt_frames[next_gnt_frame++ % ARRAY_SIZE(gnt_frames)] = mfn;
}

/* Frames gained with no slot free: given back after the call. */
static xen_pfn_t spill[512];
static unsigned int nr_spill;

/* A frame populate_physmap gave: into an empty slot, or to spill. */
static void pool_gain(unsigned long mfn)
{
    int i = pool_find(mfn);

    if ( i >= 0 )
        return;
    if ( (i = pool_find(INVALID_MFN)) < 0 )
    {
        if ( nr_spill < ARRAY_SIZE(spill) )
            spill[nr_spill++] = mfn;
        return;
    }
    pool[i] = mfn;
    pool_level[i] = 0;
    gained++;
}

/* Give the spilt frames back, so that the pool can be refilled. */
static void pool_spill(void)
{
    struct xen_memory_reservation r = {
        .nr_extents = nr_spill, .domid = DOMID_SELF,
    };
    long rc;

    if ( !nr_spill )
        return;
    set_xen_guest_handle(r.extent_start, spill);
    rc = HYPERCALL(__HYPERVISOR_memory_op, XENMEM_decrease_reservation, &r,
                   0, 0, 0);
    if ( verbose )
        printf("  (%u frames more than the pool holds given back: %ld)\n",
               nr_spill, rc);
    nr_spill = 0;
}

static unsigned int pool_free_slots(void)
{
    unsigned int n = 0;

    for ( unsigned int i = 0; i < NR_POOL; i++ )
        n += pool[i] == INVALID_MFN;
    return n;
}

/* A pool frame, tables included; now and then a frame not ours. */
static unsigned long pool_frame(void)
{
    for ( unsigned int tries = 0; tries < 4; tries++ )
    {
        unsigned long mfn = PICK(pool);

        if ( mfn != INVALID_MFN )
            return mfn;
    }
    return PICK(junk);
}

/* One last pinned at @level, if any (a good child for a table). */
static unsigned long pool_table(unsigned int level)
{
    unsigned int i, start = rnd_below(NR_POOL);

    for ( i = 0; i < NR_POOL; i++ )
    {
        unsigned int j = (start + i) % NR_POOL;

        if ( pool[j] != INVALID_MFN && pool_level[j] == level )
            return pool[j];
    }
    return pool_frame();
}

/*
 * One of those frames that aren't the pool's (or junk).  The guest may
 * write them, grant them and give them back: the shim must not free
 * what it still uses itself.
 */
static unsigned long other_frame(void)
{
    unsigned long mfn = 0;

    switch ( rnd_below(3) )
    {
    case 0:
        mfn = PICK(gnt_frames);
        break;
    case 1:
        mfn = PICK(stale);
        break;
    }
    if ( !mfn || mfn == gnt_mapped[0] || mfn == gnt_mapped[1] )
        return PICK(junk);
    return mfn;
}

/*
 * A frame the fuzz may write, grant, give back: a pool frame, a
 * window's, one of the others.
 */
static unsigned long own_frame(void)
{
    switch ( rnd_below(8) )
    {
    case 0:
        return win_mfn[rnd_below(NR_WIN)];
    case 1:
        return other_frame();
    default:
        return pool_frame();
    }
}

/* A frame to read from: those, or this kernel's. */
static unsigned long src_frame(void)
{
    return rnd_below(4) ? own_frame() : PICK(kernel_frames);
}

/* A virtual address the fuzz may remap: a window, or in the hole. */
static unsigned long window_va(void)
{
    unsigned int i = rnd_below(NR_WIN + NR_HOLE_VAS);

    if ( i < NR_WIN )
        return (unsigned long)win[i];
    i -= NR_WIN;
    return hole + (i & 1) * (1UL << 21) + (i >> 1) * PAGE_SIZE;
}

/* A pointer no hypercall may use. */
static unsigned long bad_ptr(void)
{
    static const unsigned long bad[] = {
        (unsigned long)BAD_UNMAPPED, (unsigned long)BAD_NONCANONICAL,
        (unsigned long)BAD_XEN,
    };

    return PICK(bad);
}

/*
 * An address to map at that no map may use, or one inside a window (not
 * page-aligned).  Never 0: this kernel's page 0 is mapped, and a grant
 * map, update_va_mapping or a replace's new_addr there would take it
 * away.  Never a buffer: a window may map any frame, one holding frame
 * numbers of ours too (a copy of start_info's).
 */
static unsigned long bad_va(void)
{
    return rnd_below(4) ? bad_ptr() : window_va() + 1 + rnd_below(4095);
}

/*
 * A page-table entry's value: a pool frame or junk, never a window's or
 * this kernel's (an entry of any level may get it: a window's frame
 * would become a table there, and this kernel's be mapped anew).
 */
static uint64_t any_pte(void)
{
    static const uint64_t flags[] = {
        PTE_RO, PTE_RW, PTE_TABLE, PTE_RO | _PAGE_NX, PTE_RW | _PAGE_USER,
        PTE_RO | _PAGE_GLOBAL, PTE_TABLE | _PAGE_PSE, PTE_RW | _PAGE_PCD,
        _PAGE_PRESENT, PTE_TABLE | _PAGE_USER,
    };
    unsigned long mfn = rnd_below(8) ? pool_frame() : PICK(junk);
    uint64_t f;

    switch ( rnd_below(12) )
    {
    case 0:
        return 0;
    case 1:
        return rnd() & ~_PAGE_PRESENT;
    case 2:
        f = rnd() & UINT64_C(0xfff0000000000fff);
        break;
    default:
        f = PICK(flags);
        break;
    }
    return pte_make(mfn, f);
}

/* An entry to write: in a pool frame, the windows' L1s, hole's L2. */
static uint64_t any_entry_ptr(void)
{
    unsigned int slot = rnd_below(2) ? rnd_below(8) : rnd_below(512);

    switch ( rnd_below(10) )
    {
    case 0 ... 3:
        return ((uint64_t)pool_frame() << PAGE_SHIFT) + slot * 8;
    case 4 ... 5:
        return win_l1e[rnd_below(NR_WIN)];
    case 6:
        return hole_l2e + rnd_below(4) * 8;
    case 7:
        return ((uint64_t)win_mfn[rnd_below(NR_WIN)] << PAGE_SHIFT) +
               slot * 8;
    case 8:
        return ((uint64_t)PICK(junk) << PAGE_SHIFT) + slot * 8;
    default:                                    /* misaligned */
        return ((uint64_t)pool_frame() << PAGE_SHIFT) + slot * 8 + 4;
    }
}

/* ---------------------------------------------------------- grants */

static grant_ref_t any_ref(void)
{
    switch ( rnd_below(16) )
    {
    case 0:
        return rnd_below(2) ? (grant_ref_t)rnd() : 256 * (1 + rnd_below(8));
    default:
        return REF_FIRST + rnd_below(NR_REFS);
    }
}

static domid_t any_domid(void)
{
    static const domid_t ids[] = { 0, DOMID_SELF, 2, DOMID_IO, 0x7ff0 };

    return rnd_below(8) ? GNT_SELF_ID : PICK(ids);
}

/* Write entry @ref as the guest does: the flags last. */
static void set_entry(grant_ref_t ref, uint16_t flags, domid_t domid,
                      unsigned long frame)
{
    if ( ref >= REF_FIRST + NR_REFS )
        return;
    if ( gnt_version == 1 )
    {
        gnt_v1[ref].domid = domid;
        gnt_v1[ref].frame = frame;
        __atomic_store_n(&gnt_v1[ref].flags, flags, __ATOMIC_SEQ_CST);
        return;
    }
    gnt_v2[ref].hdr.domid = domid;
    if ( (flags & GTF_type_mask) == GTF_transitive )
    {
        gnt_v2[ref].transitive.trans_domid = rnd_below(2) ? GNT_SELF_ID : 0;
        gnt_v2[ref].transitive.gref = any_ref();
    }
    else if ( flags & GTF_sub_page )
    {
        gnt_v2[ref].sub_page.frame = frame;
        gnt_v2[ref].sub_page.page_off = rnd_below(4) ? rnd_below(4096) : rnd();
        gnt_v2[ref].sub_page.length = rnd_below(4) ? rnd_below(4097) : rnd();
    }
    else
        gnt_v2[ref].full_page.frame = frame;
    __atomic_store_n(&gnt_v2[ref].hdr.flags, flags, __ATOMIC_SEQ_CST);
}

/* Rewrite entry @ref at random: most often a grant of a frame of ours. */
static void rewrite_entry(grant_ref_t ref)
{
    uint16_t flags;

    switch ( rnd_below(16) )
    {
    case 0:
        flags = GTF_invalid;
        break;
    case 1 ... 2:
        flags = GTF_accept_transfer;
        break;
    case 3:
        flags = rnd();
        break;
    case 4:
        flags = gnt_version == 2 ? GTF_transitive : GTF_permit_access;
        break;
    default:
        flags = GTF_permit_access | (rnd_below(3) ? 0 : GTF_readonly);
        if ( gnt_version == 2 && !rnd_below(6) )
            flags |= GTF_sub_page;
        if ( !rnd_below(16) )
            flags |= GTF_PWT << rnd_below(3);
        break;
    }
    set_entry(ref, flags, any_domid(), own_frame());
}

static void rewrite_entries(void)
{
    for ( unsigned int n = rnd_below(4); n; n-- )
        rewrite_entry(REF_FIRST + rnd_below(NR_REFS));
}

static struct map_rec *any_map(bool live_only, bool ro_only)
{
    unsigned int i, start = rnd_below(NR_MAPS);

    for ( i = 0; i < NR_MAPS; i++ )
    {
        struct map_rec *m = &maps[(start + i) % NR_MAPS];

        if ( (m->live || (!live_only && m->flags)) &&
             (!ro_only || (m->flags & GNTMAP_readonly)) )
            return m;
    }
    return NULL;
}

static grant_handle_t any_handle(const struct map_rec *m)
{
    if ( m && rnd_below(8) )
        return m->handle;
    return rnd_below(2) ? rnd_below(64) : (grant_handle_t)rnd();
}

/* Into a slot whose map is gone, or the oldest (that map leaks). */
static void record_map(const struct gnttab_map_grant_ref *op)
{
    struct map_rec *m = &maps[next_map++ % NR_MAPS];

    for ( unsigned int i = 0; i < NR_MAPS && m->live; i++ )
        m = &maps[next_map++ % NR_MAPS];

    *m = (struct map_rec){
        .handle = op->handle, .ref = op->ref, .flags = op->flags,
        .host_addr = op->host_addr, .dev_bus_addr = op->dev_bus_addr,
        .live = true,
    };
}

/* An unmap that worked: what it undid is gone from the records. */
static void record_unmap(grant_handle_t handle, uint64_t host, uint64_t dev)
{
    for ( unsigned int i = 0; i < NR_MAPS; i++ )
    {
        struct map_rec *m = &maps[i];

        if ( !m->live || m->handle != handle )
            continue;
        if ( host )
            m->flags &= ~GNTMAP_host_map;
        if ( dev )
            m->flags &= ~GNTMAP_device_map;
        m->live = m->flags & (GNTMAP_host_map | GNTMAP_device_map);
    }
}

/*
 * A 32-bit guest's user_init() gives every present start-of-day L1
 * entry _PAGE_USER with update_va_mapping, which a window mapping a
 * frame given back would fail: the windows are unmapped first.
 */
static void owned_user_prepare(void)
{
    if ( PT_LEVELS == 3 )
        for ( unsigned int i = 0; i < NR_WIN; i++ )
            check_rc(unmap_va((unsigned long)win[i]), 0);
}

/* ------------------------------------------------------ grant upkeep */

static int16_t unmap_rec(const struct map_rec *m)
{
    int16_t st = gnt_unmap1(m->host_addr, m->handle, m->dev_bus_addr);

    if ( st == GNTST_okay )
        record_unmap(m->handle, m->host_addr, m->dev_bus_addr);
    return st;
}

/* An L1 in the hole's L2 slot of @va: a pool frame that is or can be. */
static void hole_link(unsigned long va)
{
    uint64_t l2e = hole_l2e + ((va - hole) >> 21) * 8;

    for ( unsigned int i = 0; i < NR_POOL; i++ )
        if ( pool[i] != INVALID_MFN &&
             !mmu_update1(l2e, pte_make(pool[i], PTE_TABLE)) )
            return;
}

/*
 * Undo every map we know of.  A host map whose entry the fuzz rewrote
 * can't be unmapped (Xen's "undestroyable active grants"): write it back
 * as the map made it, then unmap.
 */
static void unmap_all(void)
{
    for ( unsigned int i = 0; i < NR_MAPS; i++ )
    {
        struct map_rec *m = &maps[i];
        uint64_t pte = pte_make(m->dev_bus_addr >> PAGE_SHIFT,
                                m->flags & GNTMAP_readonly ? PTE_RO : PTE_RW);
        unsigned long va = m->host_addr & ~(PAGE_SIZE - 1);

        if ( !m->live || unmap_rec(m) == GNTST_okay ||
             !(m->flags & GNTMAP_host_map) )
            continue;
        if ( m->flags & GNTMAP_contains_pte )
            (void)mmu_update1(m->host_addr, pte);
        else if ( hypercall_update_va_mapping(va, pte, UVMF_INVLPG) &&
                  va >= hole && va < hole + 4 * (1UL << 21) )
        {
            hole_link(va);
            (void)hypercall_update_va_mapping(va, pte, UVMF_INVLPG);
        }
        if ( unmap_rec(m) != GNTST_okay && (m->flags & GNTMAP_device_map) &&
             gnt_unmap1(0, m->handle, m->dev_bus_addr) == GNTST_okay )
            record_unmap(m->handle, 0, m->dev_bus_addr);
    }
}

/*
 * gnt_setup(): the table's first frame (and status frame) mapped for
 * us to write entries; those two are never named, the others may be.
 */
static void gnt_map(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 1 };
    struct gnttab_get_status_frames gs = { .dom = DOMID_SELF,
                                           .nr_frames = 1 };
    uint64_t status = 0;
    xen_pfn_t f;

    gnt_setup(1);
    set_xen_guest_handle(st.frame_list, &f);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    set_xen_guest_handle(gs.frame_list, &status);
    if ( gnt_version == 2 )
        check_rc(gnttab_op(GNTTABOP_get_status_frames, &gs, 1), 0);
    gnt_mapped[0] = f;
    gnt_mapped[1] = status;
}

static unsigned long switches, switch_tries;

/*
 * GNTTABOP_set_version to the other version, alone: the table's windows
 * go, the switch, and they come back as the version now in force has
 * them.  Xen refuses it while any grant past the reserved ones is
 * pinned: our maps are undone first, most of the time.
 */
static void version_switch(void)
{
    struct gnttab_get_version gv = { .dom = DOMID_SELF };
    unsigned int v = gnt_version == 1 ? 2 : 1;
    long rc;

    if ( rnd_below(4) )
        unmap_all();
    gnt_unmap_all();
    rc = gnt_set_version(v);
    switch_tries++;
    if ( verbose )
    {
        printf("  set_version %u: %ld\n", v, rc);
        for ( unsigned int i = 0; i < NR_MAPS; i++ )
            if ( maps[i].live )
                printf("    still mapped: handle %u ref %u flags %#x host "
                       "%#llx dev %#llx\n", maps[i].handle, maps[i].ref,
                       maps[i].flags, (unsigned long long)maps[i].host_addr,
                       (unsigned long long)maps[i].dev_bus_addr);
    }
    if ( rc && rc != -XEN_EBUSY && rc != -XEN_ERANGE )
        test_fail("call %lu: set_version %u returned %ld", cur_iter, v, rc);
    check_rc(gnttab_op(GNTTABOP_get_version, &gv, 1), 0);
    if ( gv.version != (rc ? gnt_version : v) )
        test_fail("call %lu: set_version %u returned %ld, version now %u",
                  cur_iter, v, rc, gv.version);
    switches += gv.version != gnt_version;
    gnt_version = gv.version;
    gnt_map();
}

/* -------------------------------------------------- set-up and end */

static long reservation(void)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };

    return HYPERCALL(__HYPERVISOR_memory_op, XENMEM_current_reservation,
                     &md, 0, 0, 0);
}

/*
 * Tables from the pool's first frames, with hypercalls only (a frame
 * may still be in use as anything): L1s 0-3 mapping data frames 8-15 at
 * slots 0-7, L2s 4-5 holding the L1s, on 64-bit an L3 6 holding them;
 * L1s 0 and 1 in the hole's first two L2 slots.  Data frames 8-15 get
 * this kernel's code as their bytes.  What fails stays as it is.
 */
static void owned_build(void)
{
    unsigned int i, j;

    for ( i = 0; i < NR_POOL; i++ )
        if ( pool[i] != INVALID_MFN && i < 16 )
        {
            mmuext_op_t op = {
                .cmd = i < 8 ? MMUEXT_CLEAR_PAGE : MMUEXT_COPY_PAGE,
                .arg1.mfn = pool[i], .arg2.src_mfn = kernel_frames[0],
            };

            (void)hypercall_mmuext_op(&op, 1, NULL, DOMID_SELF);
        }
    for ( i = 0; i < 7; i++ )
    {
        unsigned int level = i < 4 ? 1 : i < 6 ? 2 : 3;

        if ( pool[i] == INVALID_MFN || level > PT_LEVELS - 1 )
            continue;
        for ( j = 0; j < (level == 1 ? 4 : 2); j++ )
        {
            unsigned long child = level == 1 ? pool[8 + (i * 4 + j) % 8]
                                  : level == 2 ? pool[(i - 4) * 2 + j]
                                  : pool[4 + j];
            uint64_t f = level > 1 ? PTE_TABLE
                         : (i + j) & 1 ? PTE_RW : PTE_RO;

            if ( child != INVALID_MFN )
                (void)mmu_update1(((uint64_t)pool[i] << PAGE_SHIFT) +
                                  (level == 1 ? j * 2 + (i & 1) : j) * 8,
                                  pte_make(child, f));
        }
        if ( !pin_table(level, pool[i]) )
            pool_level[i] = level;
    }
    for ( i = 0; i < 2; i++ )
        if ( pool[i] != INVALID_MFN )
            (void)mmu_update1(hole_l2e + i * 8,
                              pte_make(pool[i], PTE_TABLE));
    for ( i = 0; i < NR_REFS; i++ )
        rewrite_entry(REF_FIRST + i);
}

/*
 * Put back what the fuzz changed of ours: maps undone as far as they
 * can be, the hole emptied, the pool's tables unpinned, the windows'
 * own frames mapped again.  Frames given back but still referenced by
 * those are released.  (A window's frame can be a page table until
 * then: a pool table's entries may have been copied from one that maps
 * it, such as our bootstrap L1.)
 */
static void owned_teardown(void)
{
    unsigned int i;

    unmap_all();
    for ( i = 0; i < 4; i++ )
        check_rc(mmu_update1(hole_l2e + i * 8, 0), 0);
    for ( i = 0; i < NR_POOL; i++ )
    {
        pool_level[i] = 0;
        if ( pool[i] != INVALID_MFN )
            (void)unpin_table(pool[i]);
    }
    for ( i = 0; i < NR_WIN; i++ )
        check_rc(remap_initial((unsigned long)win[i]), 0);
}

static unsigned long tidies;

/*
 * When most of the pool is gone, and frames given back can't come back
 * yet (our mappings and tables still hold them): tear down, take frames
 * back into the pool, and build its tables again.
 */
static void owned_tidy(void)
{
    struct xen_memory_reservation r = { .domid = DOMID_SELF };
    static xen_pfn_t list[NR_POOL];
    long rc;

    if ( pool_free_slots() < NR_POOL * 3 / 4 )
        return;
    tidies++;
    owned_teardown();
    r.nr_extents = pool_free_slots();
    for ( unsigned int i = 0; i < r.nr_extents; i++ )
        list[i] = start_info->nr_pages + i;
    set_xen_guest_handle(r.extent_start, list);
    rc = HYPERCALL(__HYPERVISOR_memory_op, XENMEM_populate_physmap, &r, 0,
                   0, 0);
    for ( long i = 0; i < rc; i++ )
        pool_gain(list[i]);
    if ( verbose )
        printf("  (tidied up: %ld frames back, %u missing)\n", rc,
               pool_free_slots());
    owned_build();
}

static void owned_setup(void)
{
    static uint64_t buf[PAGE_SIZE / 8];
    unsigned int i, j;

    hole = (initial_mapping_end() + (1UL << 21) - 1) & ~((1UL << 21) - 1);
    hole_l2e = pt_entry_maddr(hole, 2);
    for ( i = 0; i < NR_WIN; i++ )
    {
        win_mfn[i] = virt_to_mfn(win[i]);
        win_l1e[i] = pt_entry_maddr((unsigned long)win[i], 1);
    }
    if ( !hole_l2e || !win_l1e[0] )
        return test_error("no L2 entry for the hole, or no L1 for windows");

    junk[0] = hypervisor_frame();
    junk[1] = maximum_ram_page();
    junk[2] = maximum_ram_page() + 77;
    junk[3] = (xen_pfn_t)~0UL;
    junk[4] = is_guest_frame(0) ? junk[2] + 1 : 0;
    junk[5] = is_guest_frame(0x200) ? junk[2] + 2 : 0x200;
    kernel_frames[0] = virt_to_mfn(test_main);
    kernel_frames[1] = virt_to_mfn(test_title);
    kernel_frames[2] = virt_to_mfn(owned_setup);
    kernel_frames[3] = virt_to_mfn(start_info);

    /* The pool; its data frames past 16 half full of random bytes. */
    for ( i = 0; i < NR_POOL; i++ )
        pool[i] = alloc_frame();
    for ( i = 16; i < NR_POOL; i += 2 )
    {
        for ( j = 0; j < ARRAY_SIZE(buf); j++ )
            buf[j] = rnd();
        frame_write(pool[i], 0, buf, sizeof(buf));
    }
    /* v1 or v2 to start with: a pin the fuzz can't undo may stay. */
    gnt_map();
    if ( rnd_below(2) )
        version_switch();
    owned_build();
    for ( i = 0; i < 7; i++ )
        if ( pool_level[i] != (i < 4 ? 1 : i < 6 ? 2 : PT_LEVELS == 4 ? 3
                                                                     : 0) )
            test_error("pool frame %u: no table", i);
}

static void owned_finish(void)
{
    long before = reservation();

    owned_teardown();
    gnt_unmap_all();
    printf("\nhcall-fuzz: pool frames lost %lu, gained %lu, %u lost now; "
           "%lu tidy-ups; %lu of %lu version switches; reservation %ld of "
           "%lu, %ld after clean-up\n", lost, gained, pool_free_slots(),
           tidies, switches, switch_tries, before, start_info->nr_pages,
           reservation());
}
