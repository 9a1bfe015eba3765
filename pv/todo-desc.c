/* TEMPORARY link stubs: replaced by pv/descriptor-tables.c. */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "pv/hypercall.h"
long do_update_descriptor(unsigned long pa, unsigned long desc) { return -XEN_ENOSYS; }
long do_set_gdt(unsigned long frame_list, unsigned long entries) { return -XEN_ENOSYS; }
