/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkelf32: turn the shim's ELF64 image into the 32-bit ELF that multiboot
 * loaders accept (QEMU refuses an ELF64 multiboot kernel).  As Xen's own
 * mkelf32 does, it copies every PT_LOAD segment, by physical address, into
 * one PT_LOAD with vaddr == paddr, and keeps the (physical) entry point.
 *
 * usage: mkelf32 IN.elf64 OUT.elf32
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAYLOAD_OFFSET 0x1000   /* multiboot headers stay in the first 8K */

static void die(const char *msg)
{
    fprintf(stderr, "mkelf32: %s\n", msg);
    exit(1);
}

int main(int argc, char **argv)
{
    FILE *f;
    long size;
    unsigned char *in, *out;
    Elf64_Ehdr *eh;
    Elf64_Phdr *ph;
    uint64_t lo = UINT64_MAX, file_hi = 0, mem_hi = 0;
    size_t outsz;
    Elf32_Ehdr oeh;
    Elf32_Phdr oph;
    int i;

    if ( argc != 3 )
        die("usage: mkelf32 IN OUT");
    if ( !(f = fopen(argv[1], "rb")) )
        die("cannot open input");
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    rewind(f);
    if ( size < (long)sizeof(*eh) || !(in = malloc(size)) ||
         fread(in, 1, size, f) != (size_t)size )
        die("cannot read input");
    fclose(f);

    eh = (Elf64_Ehdr *)in;
    if ( memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
         eh->e_ident[EI_CLASS] != ELFCLASS64 ||
         eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph) > (uint64_t)size )
        die("input is not a sane ELF64");
    ph = (Elf64_Phdr *)(in + eh->e_phoff);

    for ( i = 0; i < eh->e_phnum; i++ )
    {
        if ( ph[i].p_type != PT_LOAD )
            continue;
        if ( ph[i].p_offset + ph[i].p_filesz > (uint64_t)size )
            die("segment outside the file");
        if ( ph[i].p_paddr < lo )
            lo = ph[i].p_paddr;
        if ( ph[i].p_paddr + ph[i].p_filesz > file_hi )
            file_hi = ph[i].p_paddr + ph[i].p_filesz;
        if ( ph[i].p_paddr + ph[i].p_memsz > mem_hi )
            mem_hi = ph[i].p_paddr + ph[i].p_memsz;
    }
    if ( lo == UINT64_MAX || mem_hi > UINT32_MAX || eh->e_entry > UINT32_MAX )
        die("no loadable segment below 4 GiB");

    outsz = PAYLOAD_OFFSET + (file_hi - lo);
    if ( !(out = calloc(1, outsz)) )
        die("out of memory");
    for ( i = 0; i < eh->e_phnum; i++ )
        if ( ph[i].p_type == PT_LOAD )
            memcpy(out + PAYLOAD_OFFSET + (ph[i].p_paddr - lo),
                   in + ph[i].p_offset, ph[i].p_filesz);

    memset(&oeh, 0, sizeof(oeh));
    memcpy(oeh.e_ident, ELFMAG, SELFMAG);
    oeh.e_ident[EI_CLASS] = ELFCLASS32;
    oeh.e_ident[EI_DATA] = ELFDATA2LSB;
    oeh.e_ident[EI_VERSION] = EV_CURRENT;
    oeh.e_type = ET_EXEC;
    oeh.e_machine = EM_386;
    oeh.e_version = EV_CURRENT;
    oeh.e_entry = eh->e_entry;
    oeh.e_phoff = sizeof(oeh);
    oeh.e_ehsize = sizeof(oeh);
    oeh.e_phentsize = sizeof(oph);
    oeh.e_phnum = 1;

    memset(&oph, 0, sizeof(oph));
    oph.p_type = PT_LOAD;
    oph.p_offset = PAYLOAD_OFFSET;
    oph.p_vaddr = oph.p_paddr = lo;
    oph.p_filesz = file_hi - lo;
    oph.p_memsz = mem_hi - lo;
    oph.p_flags = PF_R | PF_W | PF_X;
    oph.p_align = 0x1000;

    memcpy(out, &oeh, sizeof(oeh));
    memcpy(out + sizeof(oeh), &oph, sizeof(oph));

    if ( !(f = fopen(argv[2], "wb")) || fwrite(out, 1, outsz, f) != outsz ||
         fclose(f) )
        die("cannot write output");
    return 0;
}
