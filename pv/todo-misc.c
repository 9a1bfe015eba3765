/* TEMPORARY link stubs: replaced by pv/misc-hypercalls.c, pv/memory.c, pv/multicall.c. */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "pv/hypercall.h"
long do_stack_switch(unsigned long ss, unsigned long esp) { return -XEN_ENOSYS; }
long do_fpu_taskswitch(unsigned long set) { return -XEN_ENOSYS; }
long do_set_debugreg(unsigned long reg, unsigned long value) { return -XEN_ENOSYS; }
unsigned long do_get_debugreg(unsigned long reg) { return -XEN_ENOSYS; }
long do_memory_op(unsigned long cmd, unsigned long arg) { return -XEN_ENOSYS; }
long do_multicall(unsigned long call_list, unsigned long nr_calls) { return -XEN_ENOSYS; }
long do_vm_assist(unsigned long cmd, unsigned long type) { return -XEN_ENOSYS; }
long do_set_segment_base(unsigned long which, unsigned long base) { return -XEN_ENOSYS; }
