/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The demo: print what the domain builder handed over, and check the
 * little that every PV kernel takes for granted at entry.
 */
#include "guest.h"

const char test_title[] = "Hello from a PV guest";

static uint8_t bss_probe[4096];

void test_main(void)
{
    const start_info_t *si = start_info;
    unsigned int i;

    printf("Hello World\n");
    printf("start_info at %p:\n", si);
    printf("  magic        %.32s\n", si->magic);
    printf("  nr_pages     %lu\n", si->nr_pages);
    printf("  shared_info  0x%lx (machine address)\n", si->shared_info);
    printf("  flags        0x%x\n", si->flags);
    printf("  store        mfn 0x%lx, evtchn %u\n",
           (unsigned long)si->store_mfn, si->store_evtchn);
    printf("  console      mfn 0x%lx, evtchn %u\n",
           (unsigned long)si->console.domU.mfn, si->console.domU.evtchn);
    printf("  pt_base      0x%lx, %lu frames\n",
           si->pt_base, si->nr_pt_frames);
    printf("  mfn_list     0x%lx\n", si->mfn_list);
    printf("  module       0x%lx, %lu bytes\n", si->mod_start, si->mod_len);
    printf("  p2m frames   pfn 0x%lx, %lu frames\n",
           si->first_p2m_pfn, si->nr_p2m_frames);
    printf("  cmd_line     \"%.*s\"\n", (int)sizeof(si->cmd_line),
           (const char *)si->cmd_line);

    if ( strncmp(si->magic, GUEST_SI_MAGIC, sizeof(GUEST_SI_MAGIC)) )
        test_fail("start_info magic \"%.32s\", expected " GUEST_SI_MAGIC,
                  si->magic);
    if ( strnlen((const char *)si->cmd_line, sizeof(si->cmd_line)) ==
         sizeof(si->cmd_line) )
        test_fail("start_info cmd_line is not NUL-terminated");

    for ( i = 0; i < sizeof(bss_probe); i++ )
        if ( bss_probe[i] )
        {
            test_fail(".bss byte %u at %p is 0x%02x, not 0",
                      i, &bss_probe[i], bss_probe[i]);
            break;
        }

    test_success();
}
