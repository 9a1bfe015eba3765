/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * touch-memory MIB ROUNDS: the initramfs's page-fault workload.  Each
 * round maps MIB MiB of fresh anonymous memory, writes one byte to every
 * 4 KiB page (a fault each) and unmaps it.  Prints "touch-memory: N MiB
 * x R" when done; exit status 1 if a mapping fails.
 *
 * A fault each: the mapping is marked MADV_NOHUGEPAGE, or a kernel with
 * transparent huge pages on (Debian's: THP "always") would fill it with
 * 2 MiB pages natively, 512 pages per fault, while a PV guest (no huge
 * pages) takes every 4 KiB one; the comparison would then be of zeroing
 * memory, not of page faults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
    unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 128;
    unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 2;
    size_t size = mib << 20, off;
    unsigned long r;

    for ( r = 0; r < rounds; r++ )
    {
        volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

        if ( p == MAP_FAILED )
        {
            perror("touch-memory: mmap");
            return 1;
        }
        /* Refused without THP in the kernel: no huge pages anyway. */
        madvise((void *)p, size, MADV_NOHUGEPAGE);
        for ( off = 0; off < size; off += 4096 )
            p[off] = (char)off;
        munmap((void *)p, size);
    }
    printf("touch-memory: %lu MiB x %lu\n", mib, rounds);
    return 0;
}
