/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the block and network registries (drivers/block.c, drivers/net.c)
 * share for a device the host adds (its user told) and one it takes
 * back: its users told, then the device out of the array.  Macros, as
 * the two arrays hold different types; each device has pci, removing,
 * ops->stop and name.
 */
#ifndef DRIVERS_REGISTRY_H
#define DRIVERS_REGISTRY_H

#include "arch/x86/smp.h"
#include "drivers/dma.h"
#include "drivers/pci.h"
#include "shim/console.h"
#include "shim/softirq.h"

/*
 * A device just registered to its user's @hook (a backend taking a
 * device the host added): what the user allocates for it is the user's,
 * kept when the device goes (its vbd's or vif's state, used again by
 * the next), not counted as the device's driver's (dma_owner_set()).
 */
#define REGISTRY_ADDED(hook, dev) do {                                      \
    if ( hook )                                                             \
    {                                                                       \
        unsigned int was_ = dma_owner_set(0);                               \
                                                                            \
        (hook)(dev);                                                        \
        dma_owner_set(was_);                                                \
    }                                                                       \
} while ( 0 )

/*
 * Every device of @arr[0..@nr) on function @d, not yet asked: to @hook,
 * whose user gives it back with @release(), or to @release() at once.
 * Backwards: @release() moves the ones after it down.
 */
#define REGISTRY_REMOVE_PCI(arr, nr, d, hook, release) do {                \
    unsigned int i_;                                                        \
                                                                            \
    for ( i_ = (nr); i_-- > 0; )                                            \
    {                                                                       \
        typeof((arr)[0]) dev_ = (arr)[i_];                                  \
                                                                            \
        if ( dev_->pci != (d) || dev_->removing )                           \
            continue;                                                       \
        dev_->removing = true;                                              \
        if ( hook )                                                         \
            (hook)(dev_);                                                   \
        else                                                                \
            release(dev_);                                                  \
    }                                                                       \
} while ( 0 )

/*
 * @dev out of @arr[0..@nr): the entries after it move down one, the
 * count published last.  Another CPU's softirq that reads the array
 * meanwhile may pass one device twice or miss one, whose pending bits
 * would then wait for an interrupt that may never come (its queue's
 * device, having raised one, may have nothing more to say): so every
 * CPU runs softirq @nr again once the array has moved.  Then @dev
 * stopped (a stopped device has no pending bits of its own), and its
 * function's hold dropped.
 */
#define REGISTRY_RELEASE(arr, nr, dev, softirq) do {                        \
    unsigned int i_;                                                        \
                                                                            \
    for ( i_ = 0; i_ < (nr) && (arr)[i_] != (dev); i_++ )                   \
        continue;                                                           \
    if ( i_ == (nr) )                                                       \
        break;                                                              \
    for ( ; i_ + 1 < (nr); i_++ )                                           \
        (arr)[i_] = (arr)[i_ + 1];                                          \
    __atomic_store_n(&(nr), (nr) - 1, __ATOMIC_SEQ_CST);                    \
    for ( i_ = 0; i_ < NR_CPUS; i_++ )                                      \
        if ( cpu_online(i_) )                                               \
            cpu_raise_softirq(i_, softirq);                                 \
    if ( (dev)->ops->stop )                                                 \
        (dev)->ops->stop(dev);                                              \
    printk("%s: given back\n", (dev)->name);                                \
    if ( (dev)->pci )                                                       \
        pci_unhold((dev)->pci);                                             \
} while ( 0 )

#endif /* DRIVERS_REGISTRY_H */
