/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exit0: the smallest program there is, for tlb-churn's fork/exec loop:
 * no libc, no start-up code, one page of text; it exits with status 0.
 * Built -static -nostdlib by tools/make-initramfs.  What an exec of it
 * costs is the kernel's (a new mm, its page tables, the old one torn
 * down), not a C library's start-up.
 */
#include <sys/syscall.h>

void _start(void)
{
    asm volatile ( "syscall" :: "a" (SYS_exit_group), "D" (0) );
    __builtin_unreachable();
}
