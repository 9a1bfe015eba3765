/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcall-fuzz's calls aimed at its own state (owned.c; main.c includes
 * both): the PV MMU, grant and reservation calls on it with random valid
 * and invalid arguments, alone or in multicalls, each call's arguments
 * in a slot of its own; what comes back (handles, frames given back or
 * taken) updates the state, and each result must be one Xen can give.
 */

#define MAX_OPS         4
#define MAX_EXTENTS     8
#define MAX_SETUP       8
#define NR_SLOTS        (ARRAY_SIZE(batch) + 1)
#define DIRECT          ARRAY_SIZE(batch)   /* the slot of a lone call */

/* What an op's status and a multicall entry's result hold if not run. */
#define STATUS_NOT_RUN  0x7bad
#define RESULT_NOT_RUN  (-9999L)

static bool aim_ok;                     /* false: a call for user mode */
static unsigned int cur_slot = DIRECT;

enum aim {
    AIM_NONE, AIM_MAP, AIM_UNMAP, AIM_REPLACE, AIM_COPY, AIM_TRANSFER,
    AIM_SWAP, AIM_SETUP, AIM_VERSION, AIM_MMU, AIM_MMUEXT, AIM_UVM,
    AIM_DECREASE, AIM_POPULATE,
};

/* One call's arguments, and what its result tells. */
static struct aimed {
    enum aim what;
    unsigned int n;                     /* ops or extents */
    unsigned int done;                  /* mmu_update / mmuext_op */
    unsigned long cmd;                  /* memory_op's, with the extent */
    union {
        struct gnttab_map_grant_ref map[MAX_OPS];
        struct gnttab_unmap_grant_ref unmap[MAX_OPS];
        struct gnttab_unmap_and_replace rep[MAX_OPS];
        struct gnttab_copy copy[MAX_OPS];
        struct gnttab_transfer xfer[MAX_OPS];
        gnttab_swap_grant_ref_t swap[MAX_OPS];
        struct gnttab_setup_table setup;
        struct gnttab_get_status_frames status;
        gnttab_set_version_t version;
        mmu_update_t mmu[MAX_OPS];
        mmuext_op_t ext[MAX_OPS];
        struct xen_memory_reservation resv;
    } u;
    xen_pfn_t list[MAX_EXTENTS > MAX_SETUP ? MAX_EXTENTS : MAX_SETUP];
    uint64_t status_frames[MAX_SETUP];
} aimed[NR_SLOTS];

/* ------------------------------------------------- the calls, by kind */

static void aim_map(struct aimed *s, unsigned long a[5])
{
    static const uint32_t flags[] = {
        GNTMAP_host_map, GNTMAP_host_map | GNTMAP_readonly,
        GNTMAP_device_map, GNTMAP_device_map | GNTMAP_readonly,
        GNTMAP_host_map | GNTMAP_device_map,
        GNTMAP_host_map | GNTMAP_device_map | GNTMAP_readonly,
        GNTMAP_host_map | GNTMAP_contains_pte,
        GNTMAP_host_map | GNTMAP_contains_pte | GNTMAP_readonly,
        GNTMAP_host_map | GNTMAP_application_map | GNTMAP_readonly,
        GNTMAP_readonly, 0,
    };

    s->what = AIM_MAP;
    s->n = rnd_below(3) ? 1 : 1 + rnd_below(MAX_OPS);
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        struct gnttab_map_grant_ref *op = &s->u.map[i];
        uint32_t f = rnd_below(16) ? PICK(flags) : (uint32_t)rnd();

        if ( !rnd_below(8) )
            f |= rnd_below(8) << _GNTMAP_guest_avail0;
        *op = (struct gnttab_map_grant_ref){
            .flags = f, .ref = any_ref(), .handle = 0xdead,
            .dom = rnd_below(16) ? GNT_SELF_ID : any_domid(),
            .status = STATUS_NOT_RUN,
        };
        if ( !rnd_below(4) )
            rewrite_entry(op->ref);
        if ( (f & GNTMAP_contains_pte) && rnd_below(8) )
            op->host_addr = rnd_below(3) ? win_l1e[rnd_below(NR_WIN)]
                : ((uint64_t)pool_frame() << PAGE_SHIFT) + rnd_below(8) * 8;
        else if ( f & GNTMAP_contains_pte )
            op->host_addr = ((uint64_t)own_frame() << PAGE_SHIFT) +
                            rnd_below(PAGE_SIZE);
        else if ( (f & GNTMAP_host_map) || !rnd_below(4) )
            op->host_addr = rnd_below(8) ? window_va() : bad_va();
    }
    a[0] = wide(GNTTABOP_map_grant_ref);
    a[1] = (unsigned long)s->u.map;
    a[2] = wide(s->n);
}

/* Unmap (@replace: and replace) maps we made, or ones we didn't. */
static void aim_unmap(struct aimed *s, unsigned long a[5], bool replace)
{
    s->what = replace ? AIM_REPLACE : AIM_UNMAP;
    s->n = rnd_below(3) ? 1 : 1 + rnd_below(MAX_OPS);
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        const struct map_rec *m = any_map(rnd_below(4), false);
        uint64_t host = m && rnd_below(6) ? m->host_addr
                        : rnd_below(2) ? 0 : window_va();
        uint64_t dev = m && rnd_below(2) ? m->dev_bus_addr
                       : rnd_below(2) ? 0 : (uint64_t)own_frame() << 12;

        if ( replace )
            s->u.rep[i] = (struct gnttab_unmap_and_replace){
                .host_addr = host, .handle = any_handle(m),
                .new_addr = rnd_below(3) ? 0 : rnd_below(4) ? window_va()
                                                            : bad_va(),
                .status = STATUS_NOT_RUN,
            };
        else
            s->u.unmap[i] = (struct gnttab_unmap_grant_ref){
                .host_addr = host, .dev_bus_addr = dev,
                .handle = any_handle(m), .status = STATUS_NOT_RUN,
            };
    }
    a[0] = wide(replace ? GNTTABOP_unmap_and_replace
                        : GNTTABOP_unmap_grant_ref);
    a[1] = (unsigned long)s->u.unmap;
    a[2] = wide(s->n);
}

/*
 * A copy.  Now and then Xen's XSA-500: the destination a grant pinned
 * read-only only, whose entry now names another frame, writable.
 */
static void any_copy_ptr(struct gnttab_copy_ptr *p, bool gref, bool dest)
{
    p->offset = rnd_below(4) ? rnd_below(PAGE_SIZE - 256) : rnd();
    p->domid = rnd_below(8) ? DOMID_SELF : any_domid();
    if ( gref )
        p->u.ref = any_ref();
    else
        p->u.gmfn = dest ? own_frame() : src_frame();
}

static void aim_copy(struct aimed *s, unsigned long a[5])
{
    s->what = AIM_COPY;
    s->n = rnd_below(3) ? 1 : 1 + rnd_below(MAX_OPS);
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        struct gnttab_copy *op = &s->u.copy[i];
        const struct map_rec *m;

        op->flags = rnd_below(16) ? rnd_below(4) : (uint16_t)rnd();
        any_copy_ptr(&op->source, op->flags & GNTCOPY_source_gref, false);
        any_copy_ptr(&op->dest, op->flags & GNTCOPY_dest_gref, true);
        op->len = rnd_below(4) ? rnd_below(257)
                               : rnd_below(2) ? PAGE_SIZE : rnd();
        op->status = STATUS_NOT_RUN;
        if ( !rnd_below(3) && (m = any_map(true, true)) )
        {
            set_entry(m->ref, GTF_permit_access, GNT_SELF_ID,
                      rnd_below(4) ? pool_frame() : own_frame());
            op->flags |= GNTCOPY_dest_gref;
            op->dest.u.ref = m->ref;
            op->dest.domid = rnd_below(2) ? DOMID_SELF : GNT_SELF_ID;
        }
    }
    a[0] = wide(GNTTABOP_copy);
    a[1] = (unsigned long)s->u.copy;
    a[2] = wide(s->n);
}

static void aim_transfer(struct aimed *s, unsigned long a[5])
{
    s->what = AIM_TRANSFER;
    s->n = rnd_below(3) ? 1 : 1 + rnd_below(MAX_OPS);
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        grant_ref_t ref = any_ref();

        if ( rnd_below(2) )
            set_entry(ref, rnd_below(8) ? GTF_accept_transfer
                                        : GTF_accept_transfer |
                                          GTF_transfer_committed,
                      any_domid(), own_frame());
        s->u.xfer[i] = (struct gnttab_transfer){
            .mfn = rnd_below(8) ? pool_frame() : other_frame(),
            .domid = rnd_below(8) ? GNT_SELF_ID : any_domid(),
            .ref = ref, .status = STATUS_NOT_RUN,
        };
    }
    a[0] = wide(GNTTABOP_transfer);
    a[1] = (unsigned long)s->u.xfer;
    a[2] = wide(s->n);
}

static void aim_swap(struct aimed *s, unsigned long a[5])
{
    s->what = AIM_SWAP;
    s->n = 1 + rnd_below(MAX_OPS);
    for ( unsigned int i = 0; i < s->n; i++ )
        s->u.swap[i] = (gnttab_swap_grant_ref_t){
            .ref_a = any_ref(), .ref_b = any_ref(), .status = STATUS_NOT_RUN,
        };
    a[0] = wide(GNTTABOP_swap_grant_ref);
    a[1] = (unsigned long)s->u.swap;
    a[2] = wide(s->n);
}

/*
 * setup_table (growing the table, up to 8 frames) or get_status_frames,
 * never for more frames than the list holds.
 */
static void aim_setup(struct aimed *s, unsigned long a[5])
{
    bool good = rnd_below(8);
    domid_t dom = rnd_below(4) ? DOMID_SELF : any_domid();
    uint32_t nr = rnd_below(8) ? rnd_below(MAX_SETUP + 1)
                               : 1000 + rnd_below(99);      /* too many */

    s->what = AIM_SETUP;
    s->n = 1;
    s->cmd = a[0] = rnd_below(2) ? GNTTABOP_setup_table
                                 : GNTTABOP_get_status_frames;
    if ( s->cmd == GNTTABOP_setup_table )
    {
        s->u.setup = (struct gnttab_setup_table){
            .dom = dom, .nr_frames = nr, .status = STATUS_NOT_RUN,
        };
        set_xen_guest_handle(s->u.setup.frame_list,
                             good ? s->list : (xen_pfn_t *)bad_ptr());
    }
    else
    {
        s->u.status = (struct gnttab_get_status_frames){
            .dom = dom, .nr_frames = nr, .status = STATUS_NOT_RUN,
        };
        set_xen_guest_handle(s->u.status.frame_list,
                             good ? s->status_frames : (uint64_t *)bad_ptr());
    }
    a[1] = (unsigned long)&s->u.setup;
    a[2] = rnd_below(8) ? 1 : 0;
}

/*
 * A set_version that changes nothing: the version in force, or none
 * (the table's windows must be undone for a switch: version_switch()).
 */
static void aim_version(struct aimed *s, unsigned long a[5])
{
    static const uint32_t bad[] = { 0, 3, 4, 0x10001 };

    s->what = AIM_VERSION;
    s->n = 1;
    s->u.version.version = rnd_below(4) ? gnt_version : PICK(bad);
    a[0] = GNTTABOP_set_version;
    a[1] = rnd_below(8) ? (unsigned long)&s->u.version : bad_ptr();
    a[2] = 1;
}

static void aim_mmu_update(struct aimed *s, unsigned long a[5])
{
    s->what = AIM_MMU;
    s->n = rnd_below(2) ? 1 : 1 + rnd_below(MAX_OPS);
    s->done = ~0u;
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        mmu_update_t *r = &s->u.mmu[i];

        switch ( rnd_below(8) )
        {
        case 0:
            r->ptr = ((uint64_t)own_frame() << PAGE_SHIFT) |
                     MMU_MACHPHYS_UPDATE;
            r->val = rnd_below(2) ? rnd_below(0x10000) : rnd();
            break;
        case 1:
            r->ptr = any_entry_ptr() | MMU_PT_UPDATE_PRESERVE_AD;
            r->val = any_pte();
            break;
        default:
            r->ptr = any_entry_ptr();
            r->val = any_pte();
            break;
        }
    }
    a[0] = (unsigned long)s->u.mmu;
    a[1] = wide(s->n);
    a[2] = rnd_below(8) ? (unsigned long)&s->done : 0;
    a[3] = rnd_below(16) ? DOMID_SELF : rnd_below(4);
}

static void aim_mmuext(struct aimed *s, unsigned long a[5])
{
    s->what = AIM_MMUEXT;
    s->n = rnd_below(2) ? 1 : 1 + rnd_below(MAX_OPS);
    s->done = ~0u;
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        mmuext_op_t *op = &s->u.ext[i];

        *op = (mmuext_op_t){ .cmd = MMUEXT_UNPIN_TABLE };
        switch ( rnd_below(12) )
        {
        case 0 ... 4:
            op->cmd = MMUEXT_PIN_L1_TABLE + (rnd_below(2) ? rnd_below(2)
                                                          : rnd_below(4));
            op->arg1.mfn = rnd_below(2) ? pool_frame()
                                        : pool_table(op->cmd + 1 -
                                                     MMUEXT_PIN_L1_TABLE);
            break;
        case 5 ... 7:
            op->arg1.mfn = pool_frame();
            break;
        case 8:
            op->cmd = MMUEXT_CLEAR_PAGE;
            op->arg1.mfn = own_frame();
            break;
        case 9:
            op->cmd = MMUEXT_COPY_PAGE;
            op->arg1.mfn = own_frame();
            op->arg2.src_mfn = src_frame();
            break;
        case 10:
            op->cmd = MMUEXT_INVLPG_LOCAL;
            op->arg1.linear_addr = window_va();
            break;
        default:
            op->cmd = MMUEXT_TLB_FLUSH_LOCAL;
            break;
        }
    }
    a[0] = (unsigned long)s->u.ext;
    a[1] = wide(s->n);
    a[2] = rnd_below(8) ? (unsigned long)&s->done : 0;
    a[3] = DOMID_SELF;
}

static void aim_update_va_mapping(struct aimed *s, unsigned long a[5])
{
    static const unsigned long flags[] = {
        UVMF_NONE, UVMF_INVLPG, UVMF_TLB_FLUSH, UVMF_INVLPG | UVMF_ALL,
        UVMF_TLB_FLUSH | UVMF_ALL,
    };
    unsigned long va = rnd_below(8) ? window_va() : bad_va();
    uint64_t pte = any_pte();

    s->what = AIM_UVM;
    s->n = 1;
    s->u.mmu[0] = (mmu_update_t){ .ptr = va, .val = pte };
#ifdef __x86_64__
    a[0] = va;
    a[1] = pte;
    a[2] = PICK(flags);
#else
    a[0] = va;
    a[1] = (uint32_t)pte;
    a[2] = pte >> 32;
    a[3] = PICK(flags);
#endif
}

/*
 * decrease_reservation of pool frames (mapped, pinned, granted or not),
 * of extents of 2 only where both frames are the pool's; increase and
 * populate take frames back, at most as many as the list holds.
 */
static void aim_reservation(struct aimed *s, unsigned long a[5],
                            unsigned int op)
{
    unsigned int order = 0, i;

    s->what = op == XENMEM_decrease_reservation ? AIM_DECREASE
                                                : AIM_POPULATE;
    s->n = 1 + rnd_below(rnd_below(2) ? 4 : MAX_EXTENTS);
    for ( i = 0; i < s->n; i++ )
    {
        if ( op != XENMEM_decrease_reservation )
            s->list[i] = rnd_below(2) ? rnd_below(0x100000) : rnd();
        else
            s->list[i] = rnd_below(12) ? pool_frame() : other_frame();
    }
    if ( op == XENMEM_decrease_reservation && !rnd_below(8) &&
         pool_find(s->list[0] ^ 1) >= 0 )
    {
        s->n = 1;
        s->list[0] &= ~1UL;
        order = 1;
    }
    else if ( op != XENMEM_decrease_reservation && !rnd_below(8) )
        order = rnd_below(2) ? 1 + rnd_below(2) : rnd_below(12);
    s->u.resv = (struct xen_memory_reservation){
        .nr_extents = s->n, .extent_order = order,
        .mem_flags = rnd_below(8) ? 0 : rnd_below(2) ? XENMEMF_address_bits(
                                            20 + rnd_below(20)) : rnd(),
        .domid = rnd_below(16) ? DOMID_SELF : rnd_below(2) ? 1 : any_domid(),
    };
    set_xen_guest_handle(s->u.resv.extent_start,
                         rnd_below(16) ? s->list : (xen_pfn_t *)bad_ptr());
    /* No list: frames we can't know (and never get back), so rarely. */
    if ( op == XENMEM_increase_reservation && !rnd_below(32) )
    {
        set_xen_guest_handle(s->u.resv.extent_start, NULL);
        s->u.resv.nr_extents = 1;
        s->u.resv.extent_order = 0;
    }
    s->cmd = op;
    if ( !rnd_below(16) )
        s->cmd |= (unsigned long)rnd_below(3) << 6;    /* a start extent */
    a[0] = s->cmd;
    a[1] = rnd_below(32) ? (unsigned long)&s->u.resv : bad_ptr();
}

/*
 * One call aimed at the state above (false: none for this slot).  In a
 * batch, each entry has its own slot, so its arguments stay put until
 * the multicall has run them all.
 */
static bool owned_call(unsigned long *nr, unsigned long a[5])
{
    struct aimed *s = &aimed[cur_slot];

    if ( !aim_ok )
        return false;
    rewrite_entries();
    *nr = __HYPERVISOR_grant_table_op;
    switch ( rnd_below(18) )
    {
    case 0 ... 2:
        aim_map(s, a);
        break;
    case 3:
        aim_unmap(s, a, false);
        break;
    case 4:
        aim_unmap(s, a, true);
        break;
    case 5 ... 6:
        aim_copy(s, a);
        break;
    case 7:
        aim_transfer(s, a);
        break;
    case 8:
        if ( rnd_below(2) )
            aim_swap(s, a);
        else if ( rnd_below(2) )
            aim_setup(s, a);
        else
            aim_version(s, a);
        break;
    case 9 ... 10:
        *nr = __HYPERVISOR_mmu_update;
        aim_mmu_update(s, a);
        break;
    case 11 ... 12:
        *nr = __HYPERVISOR_mmuext_op;
        aim_mmuext(s, a);
        break;
    case 13:
        *nr = __HYPERVISOR_update_va_mapping;
        aim_update_va_mapping(s, a);
        break;
    case 14:
        *nr = __HYPERVISOR_memory_op;
        aim_reservation(s, a, XENMEM_decrease_reservation);
        break;
    default:
        *nr = __HYPERVISOR_memory_op;
        aim_reservation(s, a, rnd_below(3) ? XENMEM_populate_physmap
                                           : XENMEM_increase_reservation);
        break;
    }
    return true;
}

/* --------------------------------------------- what the results tell */

static void check_status(const char *what, int16_t status)
{
    if ( status != STATUS_NOT_RUN &&
         (status > GNTST_okay || status < GNTST_no_space) )
        test_fail("call %lu: %s status %d", cur_iter, what, status);
}

/* Frames of our grant table: named now and then later. */
static void after_setup(const struct aimed *s)
{
    unsigned int j;

    if ( s->cmd == GNTTABOP_setup_table )
    {
        check_status("setup_table", s->u.setup.status);
        if ( s->u.setup.status == GNTST_okay &&
             (xen_pfn_t *)s->u.setup.frame_list.p == s->list )
            for ( j = 0; j < s->u.setup.nr_frames && j < MAX_SETUP; j++ )
                note_gnt_frame(s->list[j]);
        return;
    }
    check_status("get_status_frames", s->u.status.status);
    if ( s->u.status.status == GNTST_okay &&
         (uint64_t *)s->u.status.frame_list.p == s->status_frames )
        for ( j = 0; j < s->u.status.nr_frames && j < MAX_SETUP; j++ )
            note_gnt_frame(s->status_frames[j]);
}

/* The status of each op of a batched grant call (the same offset). */
static int16_t op_status(const struct aimed *s, unsigned int i)
{
    switch ( s->what )
    {
    case AIM_MAP:       return s->u.map[i].status;
    case AIM_UNMAP:     return s->u.unmap[i].status;
    case AIM_REPLACE:   return s->u.rep[i].status;
    case AIM_COPY:      return s->u.copy[i].status;
    case AIM_TRANSFER:  return s->u.xfer[i].status;
    case AIM_SWAP:      return s->u.swap[i].status;
    default:            return STATUS_NOT_RUN;
    }
}

static void after_grant(struct aimed *s)
{
    for ( unsigned int i = 0; i < s->n; i++ )
    {
        if ( verbose && op_status(s, i) != STATUS_NOT_RUN )
            printf("  [%u.%u] status %d%s\n", (unsigned int)(s - aimed), i,
                   op_status(s, i), s->what != AIM_MAP ? "" :
                   s->u.map[i].status ? " (no handle)" : " (handle kept)");
        switch ( s->what )
        {
        case AIM_MAP:
            check_status("map", s->u.map[i].status);
            if ( s->u.map[i].status == GNTST_okay )
                record_map(&s->u.map[i]);
            break;
        case AIM_UNMAP:
            check_status("unmap", s->u.unmap[i].status);
            if ( s->u.unmap[i].status == GNTST_okay )
                record_unmap(s->u.unmap[i].handle, s->u.unmap[i].host_addr,
                             s->u.unmap[i].dev_bus_addr);
            break;
        case AIM_REPLACE:
            check_status("unmap_and_replace", s->u.rep[i].status);
            if ( s->u.rep[i].status == GNTST_okay )
                record_unmap(s->u.rep[i].handle, s->u.rep[i].host_addr, 0);
            break;
        case AIM_COPY:
            check_status("copy", s->u.copy[i].status);
            break;
        case AIM_SWAP:
            check_status("swap", s->u.swap[i].status);
            break;
        case AIM_SETUP:
            after_setup(s);
            break;
        case AIM_TRANSFER:
            /* Stolen and lost unless it went through or wasn't taken. */
            check_status("transfer", s->u.xfer[i].status);
            if ( s->u.xfer[i].status != GNTST_okay &&
                 s->u.xfer[i].status != GNTST_bad_page &&
                 s->u.xfer[i].status != STATUS_NOT_RUN )
                pool_lose(s->u.xfer[i].mfn);
            break;
        default:
            break;
        }
    }
}

/* A return code Xen's PV MMU calls can give (mm-fuzz's list). */
static void check_known_mm(const struct aimed *s, long rc)
{
    switch ( rc )
    {
    case 0: case -XEN_EINVAL: case -XEN_EBUSY: case -XEN_EPERM:
    case -XEN_EFAULT: case -XEN_ENOSYS: case -XEN_ESRCH: case -XEN_EACCES:
    case -XEN_EOPNOTSUPP:
        break;
    default:
        test_fail("call %lu: PV MMU call returned %ld", cur_iter, rc);
    }
    if ( s->what != AIM_UVM && s->done != ~0u &&
         (rc ? s->done >= s->n : s->done != s->n) )
        test_fail("call %lu: %u PV MMU ops: rc %ld but done %u", cur_iter,
                  s->n, rc, s->done);
}

static void after_mmuext(const struct aimed *s, long rc)
{
    unsigned int done = rc ? 0 : s->n;

    if ( s->done != ~0u )
        done = s->done;
    for ( unsigned int i = 0; i < done && i < s->n; i++ )
    {
        int p = pool_find(s->u.ext[i].arg1.mfn);

        if ( p >= 0 && s->u.ext[i].cmd <= MMUEXT_PIN_L4_TABLE )
            pool_level[p] = s->u.ext[i].cmd - MMUEXT_PIN_L1_TABLE + 1;
    }
}

/* Extents [start, @rc) went back, or came: the pool follows. */
static void after_reservation(struct aimed *s, long rc)
{
    unsigned long start = s->cmd >> 6, i, j;
    unsigned int order = s->u.resv.extent_order;

    if ( rc < 0 || (unsigned long)rc > (s->n > start ? s->n : start) )
        return test_fail("call %lu: memory_op %#lx of %u returned %ld",
                         cur_iter, s->cmd, s->n, rc);
    if ( (xen_pfn_t *)s->u.resv.extent_start.p != s->list )
        return;
    for ( i = start; i < (unsigned long)rc; i++ )
        for ( j = 0; j < (1UL << order); j++ )
        {
            if ( s->what == AIM_DECREASE )
                pool_lose(s->list[i] + j);
            else
                pool_gain(s->list[i] + j);
        }
}

static void after_slot(unsigned int slot, long rc)
{
    struct aimed *s = &aimed[slot];

    if ( s->what == AIM_NONE || rc == RESULT_NOT_RUN )
        return;
    if ( verbose )
        printf("  [%u] -> %ld\n", slot, rc);
    switch ( s->what )
    {
    case AIM_MMU:
    case AIM_UVM:
        check_known_mm(s, rc);
        break;
    case AIM_MMUEXT:
        check_known_mm(s, rc);
        after_mmuext(s, rc);
        break;
    case AIM_DECREASE:
    case AIM_POPULATE:
        after_reservation(s, rc);
        break;
    default:
        after_grant(s);
        break;
    }
}

/* ------------------------------------------------------ verbose lines */

static void describe_ref(grant_ref_t ref)
{
    if ( ref < REF_FIRST || ref >= REF_FIRST + NR_REFS )
        return;
    if ( gnt_version == 1 )
        printf(" [ref %u: flags %#x dom %u frame %#x]", ref,
               gnt_v1[ref].flags, gnt_v1[ref].domid, gnt_v1[ref].frame);
    else
        printf(" [ref %u: flags %#x dom %u frame %#llx]", ref,
               gnt_v2[ref].hdr.flags, gnt_v2[ref].hdr.domid,
               (unsigned long long)gnt_v2[ref].full_page.frame);
}

static void describe_op(const struct aimed *s, unsigned int i)
{
    const struct gnttab_copy *c = &s->u.copy[i];

    switch ( s->what )
    {
    case AIM_MAP:
        printf("map ref %u dom %u flags %#x host %#llx", s->u.map[i].ref,
               s->u.map[i].dom, s->u.map[i].flags,
               (unsigned long long)s->u.map[i].host_addr);
        describe_ref(s->u.map[i].ref);
        break;
    case AIM_UNMAP:
        printf("unmap handle %u host %#llx dev %#llx", s->u.unmap[i].handle,
               (unsigned long long)s->u.unmap[i].host_addr,
               (unsigned long long)s->u.unmap[i].dev_bus_addr);
        break;
    case AIM_REPLACE:
        printf("unmap_and_replace handle %u host %#llx new %#llx",
               s->u.rep[i].handle,
               (unsigned long long)s->u.rep[i].host_addr,
               (unsigned long long)s->u.rep[i].new_addr);
        break;
    case AIM_COPY:
        printf("copy flags %#x %#lx/d%u+%u -> %#lx/d%u+%u len %u", c->flags,
               (unsigned long)c->source.u.gmfn, c->source.domid,
               c->source.offset, (unsigned long)c->dest.u.gmfn,
               c->dest.domid, c->dest.offset, c->len);
        if ( c->flags & GNTCOPY_source_gref )
            describe_ref(c->source.u.ref);
        if ( c->flags & GNTCOPY_dest_gref )
            describe_ref(c->dest.u.ref);
        break;
    case AIM_TRANSFER:
        printf("transfer mfn %#lx to d%u ref %u",
               (unsigned long)s->u.xfer[i].mfn, s->u.xfer[i].domid,
               s->u.xfer[i].ref);
        describe_ref(s->u.xfer[i].ref);
        break;
    case AIM_SWAP:
        printf("swap %u %u", s->u.swap[i].ref_a, s->u.swap[i].ref_b);
        break;
    case AIM_SETUP:
        if ( s->cmd == GNTTABOP_setup_table )
            printf("setup_table d%u nr %u", s->u.setup.dom,
                   s->u.setup.nr_frames);
        else
            printf("get_status_frames d%u nr %u", s->u.status.dom,
                   s->u.status.nr_frames);
        break;
    case AIM_VERSION:
        printf("set_version %u", s->u.version.version);
        break;
    case AIM_MMU:
        printf("mmu_update %#llx <- %#llx",
               (unsigned long long)s->u.mmu[i].ptr,
               (unsigned long long)s->u.mmu[i].val);
        break;
    case AIM_UVM:
        printf("update_va_mapping %#llx <- %#llx",
               (unsigned long long)s->u.mmu[i].ptr,
               (unsigned long long)s->u.mmu[i].val);
        break;
    case AIM_MMUEXT:
        printf("mmuext cmd %u %#lx %#lx", s->u.ext[i].cmd,
               (unsigned long)s->u.ext[i].arg1.mfn,
               (unsigned long)s->u.ext[i].arg2.src_mfn);
        break;
    default:
        printf("memory_op %#lx order %u d%u list[%u] %#lx%s", s->cmd,
               s->u.resv.extent_order, s->u.resv.domid, i,
               (unsigned long)s->list[i],
               (xen_pfn_t *)s->u.resv.extent_start.p == s->list ? ""
                   : " (not the list)");
        break;
    }
}

/* Each aimed call about to run, one line an op. */
static void owned_describe(void)
{
    for ( unsigned int slot = 0; slot < NR_SLOTS; slot++ )
        for ( unsigned int i = 0; i < aimed[slot].n; i++ )
        {
            if ( aimed[slot].what == AIM_NONE )
                break;
            printf("  [%u.%u] ", slot, i);
            describe_op(&aimed[slot], i);
            printf("\n");
        }
}

/* ------------------------------------------------- the loop's hooks */

/* Before a call is made up: no slot holds one. */
static void owned_begin(unsigned long i)
{
    cur_iter = i;
    cur_slot = DIRECT;
    aim_ok = true;
    for ( unsigned int slot = 0; slot < NR_SLOTS; slot++ )
        aimed[slot].what = AIM_NONE, aimed[slot].n = 0;
}

/* After it: each slot's result, from the multicall's entries if one. */
static void owned_after(unsigned long nr, const unsigned long a[5], long rc)
{
    if ( nr == __HYPERVISOR_multicall && a[0] == (unsigned long)batch )
        for ( unsigned int i = 0; i < a[1] && i < ARRAY_SIZE(batch); i++ )
            after_slot(i, (long)batch[i].result);
    after_slot(DIRECT, rc);
    pool_spill();
}

/*
 * The bug-2 pattern: a multicall that gives back four pool frames, then
 * maps grants, with more aimed calls after.
 */
static void owned_pattern(unsigned long *nr, unsigned long a[5])
{
    unsigned int n = 2 + rnd_below(ARRAY_SIZE(batch) - 1), i;

    for ( i = 0; i < n; i++ )
    {
        unsigned long snr = __HYPERVISOR_grant_table_op, sa[5] = { 0 };

        cur_slot = i;
        if ( i == 0 )
        {
            snr = __HYPERVISOR_memory_op;
            aim_reservation(&aimed[0], sa, XENMEM_decrease_reservation);
            aimed[0].n = aimed[0].u.resv.nr_extents = 4;
            aimed[0].u.resv.extent_order = 0;
            aimed[0].u.resv.domid = DOMID_SELF;
            for ( unsigned int j = 0; j < 4; j++ )
                aimed[0].list[j] = pool_frame();
            set_xen_guest_handle(aimed[0].u.resv.extent_start,
                                 aimed[0].list);
            aimed[0].cmd = sa[0] = XENMEM_decrease_reservation;
            sa[1] = (unsigned long)&aimed[0].u.resv;
        }
        else if ( rnd_below(2) )
            aim_map(&aimed[i], sa);
        else
            owned_call(&snr, sa);
        batch[i].op = snr;
        memcpy(batch[i].args, sa, sizeof(sa));
        batch[i].result = RESULT_NOT_RUN;
    }
    cur_slot = DIRECT;
    *nr = __HYPERVISOR_multicall;
    a[0] = (unsigned long)batch;
    a[1] = n;
}
