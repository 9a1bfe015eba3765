/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The builder's last steps: start_info and the pages it points at
 * (shared_info, console ring, xenstore), the initrd, the hypercall page,
 * and vCPU 0's first register frame.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/io/console.h>
#include "arch/x86/flush.h"
#include "arch/x86/cr.h"
#include "arch/x86/eflags.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "pv/build/build.h"
#include "pv/emul/emul-cr.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "pv/domain.h"
#include "pv/event/event.h"
#include "pv/pv.h"
#include "pv/hypercall.h"
#include "pv/vcpu/time.h"
#include "shim/boot-info.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"

/* Xen's M2P marker for the shared_info frame, which is no guest pfn. */
#define SHARED_M2P_ENTRY (~0UL - 1UL)

/*
 * shared_info's frame, before the guest's memory takes the rest: a
 * 32-bit guest's start_info holds its address in 32 bits.
 */
void pv_alloc_shared_info(struct domain *d)
{
    d->shared_info_mfn = frames_alloc(1, 0, d->compat ? 1UL << 20 : 0);
    if ( d->shared_info_mfn == INVALID_PFN )
        panic("no frame for shared_info%s", d->compat ? " below 4 GiB" : "");
}

static void setup_shared_info(struct domain *d)
{
    unsigned long mfn = d->shared_info_mfn;
    shared_info_t *s;

    s = __va(mfn << PAGE_SHIFT);
    memset(s, 0, PAGE_SIZE);
    pv_m2p_set(mfn, SHARED_M2P_ENTRY);
    /*
     * The guest maps it itself, writable, and the shim writes event and
     * time updates into it: a writable type of its own for good, as
     * Xen's share_xen_page_with_guest(SHARE_rw), so it can never become
     * a page table or descriptor frame whose entries those writes make.
     */
    pv_mm_give_frame(mfn);
    page_get_type_flush(mfn_to_page(mfn), PGT_WRITABLE);

    s->vcpu_info[0].evtchn_upcall_mask = 1;     /* events start masked */
    if ( d->compat )
        compat_put(s, shared_info, arch__max_pfn, d->nr_pages);
    else
        s->arch.max_pfn = d->nr_pages;

    d->shared_info = s;
    d->shared_info_mfn = mfn;
}

/* With MOD_START_PFN the initrd sits in the pfns after the mapping. */
static void load_initrd(struct domain *d, const struct pv_layout *l,
                        const struct boot_module *m, bool by_pfn,
                        start_info_t *si)
{
    const uint8_t *src = __va(m->start);
    unsigned long first = by_pfn ? (l->v_end - l->v_start) >> PAGE_SHIFT
                                 : (l->initrd_start - l->v_start) >> PAGE_SHIFT;
    unsigned long pages = ROUNDUP(m->size, PAGE_SIZE) >> PAGE_SHIFT, i;

    if ( first + pages > d->nr_pages )
        panic("the guest's memory can't hold its %lu KiB initrd",
              (unsigned long)m->size >> 10);
    for ( i = 0; i < pages; i++ )
        memcpy(__va(pv_p2m(d, first + i) << PAGE_SHIFT), src + i * PAGE_SIZE,
               MIN(PAGE_SIZE, m->size - i * PAGE_SIZE));
    si->mod_start = by_pfn ? first : l->initrd_start;
    si->mod_len = m->size;
    if ( by_pfn )
        si->flags |= SIF_MOD_START_PFN;
}

/* The module's own line, then what followed " -- " on ours (as Xen). */
static void guest_cmdline(char *dst, size_t size, const struct boot_info *bi)
{
    const char *own = bi->mods[0].cmdline, *extra = bi->guest_extra;

    if ( snprintf(dst, size, "%s%s%s", own, *own && *extra ? " " : "",
                  extra) >= (int)size )
        printk(XENLOG_WARNING "Dom1 command line cut to %zu bytes "
               "(MAX_GUEST_CMDLINE)\n", size - 1);
}

void pv_setup_start_info(struct domain *d, const struct pv_layout *l,
                         const struct pv_kernel *k,
                         const struct boot_info *bi,
                         const struct boot_module *initrd)
{
    static start_info_t native;
    start_info_t *si = &native;
    void *page = pv_initial_va(d, l, l->start_info);
    unsigned long pfn_of = l->v_start, i;

    setup_shared_info(d);
    memset(page, 0, PAGE_SIZE);
    memset(si, 0, sizeof(*si));
    snprintf(si->magic, sizeof(si->magic), d->compat ? "xen-3.0-x86_32p"
                                                     : "xen-3.0-x86_64");
    si->nr_pages = d->nr_pages;
    si->shared_info = d->shared_info_mfn << PAGE_SHIFT;
    si->pt_base = l->pt_start;
    si->nr_pt_frames = l->nr_pt;
    si->mfn_list = l->p2m_apart ? l->p2m_va : l->p2m_start;
    if ( l->p2m_apart )
    {
        si->first_p2m_pfn = l->p2m_pfn;
        si->nr_p2m_frames = l->p2m_pages + l->p2m_tables;
    }

    d->store_mfn = pv_p2m(d, (l->xenstore - pfn_of) >> PAGE_SHIFT);
    d->console_mfn = pv_p2m(d, (l->console - pfn_of) >> PAGE_SHIFT);
    /*
     * The backends use both rings for the domain's life, as xenstored's
     * and xenconsoled's writable foreign mappings do in Xen, and hold
     * what those hold: a reference, so the guest can't give the frames
     * away (decrease_reservation, GNTTABOP_transfer), and a writable
     * type, so it can't make a page table or descriptor frame of one
     * while the shim writes into it.
     */
    if ( get_page_and_type(d->store_mfn, PGT_WRITABLE) ||
         get_page_and_type(d->console_mfn, PGT_WRITABLE) )
        panic("the builder's xenstore and console rings aren't the guest's");
    d->console = pv_initial_va(d, l, l->console);
    si->store_mfn = d->store_mfn;
    si->store_evtchn = EVTCHN_STORE_PORT;
    si->console.domU.mfn = d->console_mfn;
    si->console.domU.evtchn = EVTCHN_CONSOLE_PORT;

    if ( initrd )
        load_initrd(d, l, initrd, k->mod_start_pfn, si);
    guest_cmdline(d->cmdline, sizeof(d->cmdline), bi);
    memcpy(si->cmd_line, d->cmdline, sizeof(si->cmd_line));
    d->start_info_va = l->start_info;
    d->v_start = l->v_start;
    d->v_end = l->v_end;

    /* The guest's own copy of the p2m (mfn_list); pv_map_p2m() did it. */
    if ( !l->p2m_apart )
        for ( i = 0; l->p2m_start + (i << PAGE_SHIFT) < l->p2m_end; i++ )
            pv_write_p2m_page(d, i, pv_initial_va(d, l, l->p2m_start +
                                                         (i << PAGE_SHIFT)));

    /* A 32-bit guest reads it in its layout, every field below 4 GiB. */
    if ( !d->compat )
        memcpy(page, si, sizeof(*si));
    else if ( xlat_start_info_to_compat(page, si) )
        panic("a 32-bit start_info can't hold an address above 4 GiB "
              "(shared_info %#lx)", (unsigned long)si->shared_info);
    printk("Dom1 command line: \"%s\"\n", d->cmdline);
}

void pv_setup_vcpu(struct domain *d, const struct pv_layout *l,
                   const struct pv_kernel *k)
{
    struct vcpu *v = &d->vcpu[0];
    struct cpu_regs *regs = &get_cpu_info()->guest_regs;
    unsigned int i;

    if ( k->hypercall_page != PV_ELF_UNSET )
        pv_fill_hypercall_page(pv_initial_va(d, l, k->hypercall_page),
                               d->compat);

    /*
     * The others wait for VCPUOP_initialise, down; those beyond the
     * legacy 32 have Xen's dummy_vcpu_info until register_vcpu_info.
     */
    for ( i = 1; i < d->max_vcpus; i++ )
    {
        struct vcpu *w = &d->vcpu[i];

        w->vcpu_info = i < XEN_LEGACY_MAX_VCPUS ?
                       &d->shared_info->vcpu_info[i] : &dummy_vcpu_info;
        w->down = true;
        w->kernel_mode = true;
        pv_sched_init(w);
        w->runstate.state = RUNSTATE_offline;
        w->runstate.state_entry_time = NOW();
    }

    /*
     * libxc's vcpu_x86_32(): a PAE kernel that takes an extended cr3
     * (PAE_MODE "yes" or "bimodal", legacy "yes[extended-cr3]") starts
     * with that VM assist, which XENVER_get_features shows as
     * pae_pgdir_above_4gb.  A 64-bit one starts without.
     */
    if ( d->compat &&
         (k->pae == PV_PAE_EXTENDED_CR3 || k->pae == PV_PAE_BIMODAL) )
        d->vm_assist |= 1UL << VMASST_TYPE_pae_extended_cr3;

    v->vcpu_info = &d->shared_info->vcpu_info[0];
    v->kernel_mode = true;
    v->is_initialised = true;
    v->started = true;
    v->cr4_guest = 0;
    pv_cr_init(v);
    /* Events, blocking and time: ports 1 and 2 bound, the clock running. */
    pv_evtchn_init(d);
    pv_sched_init(v);
    v->runstate.state = RUNSTATE_running;
    v->runstate.state_entry_time = NOW();
    pv_time_init(d);
    d->shutdown_code = ~0u;

    memset(regs, 0, sizeof(*regs));
    regs->rip = k->entry;
    regs->rsp = l->stack_end;
    regs->rsi = l->start_info;
    regs->cs = d->compat ? COMPAT_FLAT_KERNEL_CS : FLAT_KERNEL_CS64;
    regs->ss = d->compat ? COMPAT_FLAT_KERNEL_SS : FLAT_KERNEL_SS;
    regs->rflags = X86_EFLAGS_IF | X86_EFLAGS_MBS;
    /* Xen's new-vCPU data selectors for a 32-bit guest: its flat DS. */
    for ( i = 0; i < ARRAY_SIZE(v->data_sel); i++ )
        v->data_sel[i] = d->compat ? COMPAT_FLAT_KERNEL_DS : 0;

    v->running = true;                  /* this CPU holds its tables now */
    load_cr3(pv_vcpu_cr3(v));
}
