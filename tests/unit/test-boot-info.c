/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the boot-protocol parsers (boot/info.c, boot/multiboot.c,
 * boot/pvh.c): loader data is built in a fake 1 MiB "physical memory",
 * which our boot_ptr() maps, and parsed into struct boot_info.  ASan's
 * redzone after the fake memory catches any read past what boot_ptr()
 * vouched for; panic() longjmps back so unusable input can be asserted.
 */
#include <assert.h>
#include <setjmp.h>
#include <unistd.h>
#include "tests/unit/unit.h"
#include "shim/console.h"
#include "../../boot/info.c"
#include "../../boot/multiboot.c"
#include "../../boot/pvh.c"
#include "../../shim/memmap.c"

#define MEM_SIZE    (1U << 20)

static uint8_t fake_mem[MEM_SIZE] __aligned(4096);
static uint64_t fake_next;                  /* bump allocator */
static struct boot_info bi;

const void *boot_ptr(uint64_t paddr, uint64_t len)
{
    if ( !paddr || paddr + len < paddr || paddr + len > MEM_SIZE )
        return NULL;
    return fake_mem + paddr;
}

void printk(const char *fmt, ...)
{
    (void)fmt;
}

/* The C library here may lack it: shim/lib/string.c's semantics. */
size_t strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if ( size )
    {
        size_t n = MIN(len, size - 1);

        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

static jmp_buf panic_jmp;
static bool panic_armed;
static unsigned int panics;

void panic(const char *fmt, ...)
{
    char msg[256];
    va_list args;

    va_start(args, fmt);
    vsnprintf(msg, sizeof(msg), fmt, args);
    va_end(args);
    if ( !panic_armed )
    {
        printf("FAIL: %s: unexpected panic: %s\n", unit_case_name, msg);
        abort();
    }
    panic_armed = false;
    panics++;
    longjmp(panic_jmp, 1);
}

/* @stmt must panic (and so return here), not carry on or crash. */
#define EXPECT_PANIC(stmt) do {                                            \
    unsigned int before_ = panics;                                         \
    if ( !setjmp(panic_jmp) )                                              \
    {                                                                      \
        panic_armed = true;                                                \
        stmt;                                                              \
        panic_armed = false;                                               \
    }                                                                      \
    CHECK_EQ(panics, before_ + 1);                                         \
} while ( 0 )

/* ------------------------------------------------------- fake memory */

static void *va(uint64_t paddr)
{
    return fake_mem + paddr;
}

static void reset(void)
{
    memset(fake_mem, 0, sizeof(fake_mem));
    memset(&bi, 0, sizeof(bi));
    fake_next = 0x1000;
}

static uint64_t alloc(size_t size)
{
    uint64_t paddr = ROUNDUP(fake_next, 8);

    fake_next = paddr + size;
    assert(fake_next <= MEM_SIZE);
    return paddr;
}

static uint64_t put_str(const char *s)
{
    uint64_t paddr = alloc(strlen(s) + 1);

    memcpy(va(paddr), s, strlen(s) + 1);
    return paddr;
}

/* @len bytes of @c at the very end of memory, with no NUL after them. */
static uint64_t put_unterminated_at_end(char c, size_t len)
{
    memset(va(MEM_SIZE - len), c, len);
    return MEM_SIZE - len;
}

static bool mem_is(unsigned int i, uint64_t addr, uint64_t size,
                   uint32_t type)
{
    const struct memmap_entry *e = &bi.memmap.map[i];

    if ( i < bi.memmap.nr && e->addr == addr && e->size == size &&
         e->type == type )
        return true;
    printf("  memmap[%u] of %u: %#llx+%#llx type %u\n", i, bi.memmap.nr,
           (unsigned long long)e->addr, (unsigned long long)e->size,
           e->type);
    return false;
}

static void check_mod(unsigned int i, uint64_t start, uint64_t size,
                      const char *name, const char *cmdline)
{
    CHECK(i < bi.nr_modules);
    CHECK_EQ(bi.mods[i].start, start);
    CHECK_EQ(bi.mods[i].size, size);
    CHECK_STR(bi.mods[i].name, name);
    CHECK_STR(bi.mods[i].cmdline, cmdline);
}

/* --------------------------------------------------------- multiboot1 */

static multiboot_info_t *mb1_new(uint32_t *info)
{
    *info = alloc(sizeof(multiboot_info_t));
    return va(*info);
}

static void mb1_mods(multiboot_info_t *mbi, unsigned int nr)
{
    mbi->flags |= MULTIBOOT_INFO_MODS;
    mbi->mods_count = nr;
    mbi->mods_addr = alloc(nr * sizeof(multiboot_module_t));
}

static void mb1_mod(multiboot_info_t *mbi, unsigned int i, uint32_t start,
                    uint32_t end, const char *s)
{
    multiboot_module_t *mod = (multiboot_module_t *)va(mbi->mods_addr) + i;

    mod->mod_start = start;
    mod->mod_end = end;
    mod->cmdline = s ? put_str(s) : 0;
}

/*
 * Append a map entry.  Its size field excludes itself: @size 20 puts the
 * next entry 24 bytes on (packed, so at any alignment).
 */
static void mb1_mmap_entry(multiboot_info_t *mbi, uint32_t size,
                           uint64_t addr, uint64_t len, uint32_t type)
{
    multiboot_memory_map_t *e;

    if ( !(mbi->flags & MULTIBOOT_INFO_MEM_MAP) )
    {
        mbi->flags |= MULTIBOOT_INFO_MEM_MAP;
        mbi->mmap_addr = alloc(0);
        mbi->mmap_length = 0;
    }
    assert(mbi->mmap_addr + mbi->mmap_length == fake_next);
    e = va(fake_next);
    fake_next += MIN(size, 64) + 4;
    assert(fake_next <= MEM_SIZE);
    e->size = size;
    e->addr = addr;
    e->len = len;
    e->type = type;
    mbi->mmap_length += size + 4;
}

static void mb1_qemu(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_BOOT_LOADER_NAME | MULTIBOOT_INFO_CMDLINE |
                 MULTIBOOT_INFO_MEMORY;
    mbi->boot_loader_name = put_str("qemu");
    mbi->cmdline = put_str("path/to/pvshim loglvl=all");
    mbi->mem_lower = 639;
    mbi->mem_upper = 1234;
    mb1_mods(mbi, 2);
    mb1_mod(mbi, 0, 0x200000, 0x2a0000, "guest.elf console=hvc0");
    mb1_mod(mbi, 1, 0x300000, 0x310000, "initrd.img");
    /* Raw: unaligned, overlapping, zero-sized and out of order. */
    mb1_mmap_entry(mbi, 20, 0x100000, 0x7ee0000, MEMMAP_RAM);
    mb1_mmap_entry(mbi, 20, 0, 0x9fc00, MEMMAP_RAM);
    mb1_mmap_entry(mbi, 20, 0x9fc00, 0x400, MEMMAP_RESERVED);
    mb1_mmap_entry(mbi, 20, 0x100123, 0x1000, MEMMAP_ACPI);
    mb1_mmap_entry(mbi, 20, 0xf0000, 0, MEMMAP_RESERVED);
    mb1_mmap_entry(mbi, 20, 0xfd00000000ULL, 0x300000000ULL, 12);

    multiboot1_parse(&bi, info);

    CHECK_STR(bi.protocol, "multiboot1");
    CHECK_STR(bi.loader, "qemu");
    CHECK(bi.image_names);
    CHECK_STR(bi.image, "path/to/pvshim");
    CHECK_STR(bi.cmdline, "loglvl=all");
    CHECK(!bi.cmdline_truncated);
    CHECK_STR(bi.guest_extra, "");
    CHECK_EQ(bi.nr_modules, 2);
    CHECK_EQ(bi.modules_dropped, 0);
    check_mod(0, 0x200000, 0xa0000, "guest.elf", "console=hvc0");
    check_mod(1, 0x300000, 0x10000, "initrd.img", "");
    /* The map, not mem_lower/mem_upper; the zero-sized entry dropped. */
    CHECK_EQ(bi.memmap.nr, 5);
    CHECK(mem_is(0, 0x100000, 0x7ee0000, MEMMAP_RAM));
    CHECK(mem_is(1, 0, 0x9fc00, MEMMAP_RAM));
    CHECK(mem_is(2, 0x9fc00, 0x400, MEMMAP_RESERVED));
    CHECK(mem_is(3, 0x100123, 0x1000, MEMMAP_ACPI));
    CHECK(mem_is(4, 0xfd00000000ULL, 0x300000000ULL, 12));
    CHECK_EQ(bi.memmap_dropped, 0);
    CHECK_EQ(bi.rsdp, 0);
}

/* Entries further apart than 24 bytes (packed, so any stride works). */
static void mb1_mmap_stride(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    reset();
    mbi = mb1_new(&info);
    mb1_mmap_entry(mbi, 25, 0x1000, 0x1000, MEMMAP_RAM);
    mb1_mmap_entry(mbi, 32, 0x3000, 0x1000, MEMMAP_NVS);
    mb1_mmap_entry(mbi, 20, 0x5000, 0x1000, MEMMAP_RAM);
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 3);
    CHECK(mem_is(0, 0x1000, 0x1000, MEMMAP_RAM));
    CHECK(mem_is(1, 0x3000, 0x1000, MEMMAP_NVS));
    CHECK(mem_is(2, 0x5000, 0x1000, MEMMAP_RAM));
}

static void mb1_mmap_hostile(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    /* A size field below 20 ends the walk (after that entry). */
    reset();
    mbi = mb1_new(&info);
    mb1_mmap_entry(mbi, 20, 0x1000, 0x1000, MEMMAP_RAM);
    mb1_mmap_entry(mbi, 20, 0x3000, 0x1000, MEMMAP_RAM);
    ((multiboot_memory_map_t *)va(mbi->mmap_addr + 24))->size = 0;
    mb1_mmap_entry(mbi, 20, 0x5000, 0x1000, MEMMAP_RAM);
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 2);
    CHECK(mem_is(1, 0x3000, 0x1000, MEMMAP_RAM));

    /* A trailing partial entry is not read. */
    reset();
    mbi = mb1_new(&info);
    mb1_mmap_entry(mbi, 20, 0x1000, 0x1000, MEMMAP_RAM);
    mb1_mmap_entry(mbi, 20, 0x3000, 0x1000, MEMMAP_RAM);
    mbi->mmap_length -= 1;
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 1);

    /* A huge size field: the next entry would be far past the map. */
    reset();
    mbi = mb1_new(&info);
    mb1_mmap_entry(mbi, 0xfffffff0, 0x1000, 0x1000, MEMMAP_RAM);
    mbi->mmap_length = 24;
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 1);

    /* A map running past the end of memory is ignored. */
    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_MEM_MAP | MULTIBOOT_INFO_MEMORY;
    mbi->mmap_addr = MEM_SIZE - 24;
    mbi->mmap_length = 48;
    mbi->mem_lower = 1;
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 0);
}

static void mb1_mem_fallback(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_MEMORY;
    mbi->mem_lower = 639;
    mbi->mem_upper = 130048;
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 2);
    CHECK(mem_is(0, 0, 639 << 10, MEMMAP_RAM));
    CHECK(mem_is(1, 1 << 20, 130048ULL << 10, MEMMAP_RAM));

    /* No memory information at all: nothing, and no panic. */
    reset();
    mbi = mb1_new(&info);
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, 0);
    CHECK_EQ(bi.nr_modules, 0);
    CHECK_STR(bi.cmdline, "");
    CHECK_STR(bi.loader, "");
}

static void mb1_grub2(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_BOOT_LOADER_NAME | MULTIBOOT_INFO_CMDLINE;
    mbi->boot_loader_name = put_str("GRUB 2.06");
    mbi->cmdline = put_str("loglvl=all console=com1");
    mb1_mods(mbi, 1);
    mb1_mod(mbi, 0, 0x200000, 0x1ff000, "guest.elf console=hvc0");
    multiboot1_parse(&bi, info);
    CHECK_STR(bi.loader, "GRUB 2.06");
    CHECK(!bi.image_names);
    CHECK_STR(bi.image, "");
    CHECK_STR(bi.cmdline, "loglvl=all console=com1");
    check_mod(0, 0x200000, 0, "", "guest.elf console=hvc0");
}

static void mb1_strings(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    /* No loader name: the image name is split off; spaces trimmed. */
    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_CMDLINE;
    mbi->cmdline = put_str("  pvshim    a=1  b ");
    mb1_mods(mbi, 4);
    mb1_mod(mbi, 0, 0x1000, 0x2000, "kernel");
    mb1_mod(mbi, 1, 0x1000, 0x2000, "");
    mb1_mod(mbi, 2, 0x1000, 0x2000, NULL);
    mb1_mod(mbi, 3, 0x1000, 0x2000, "   ");
    multiboot1_parse(&bi, info);
    CHECK(bi.image_names);
    CHECK_STR(bi.image, "pvshim");
    CHECK_STR(bi.cmdline, "a=1  b ");
    CHECK_EQ(bi.nr_modules, 4);
    check_mod(0, 0x1000, 0x1000, "kernel", "");
    check_mod(1, 0x1000, 0x1000, "", "");
    check_mod(2, 0x1000, 0x1000, "", "");
    check_mod(3, 0x1000, 0x1000, "", "");

    /* "GRUB 2" must start the name; "GRUB" alone is not GRUB 2. */
    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_BOOT_LOADER_NAME | MULTIBOOT_INFO_CMDLINE;
    mbi->boot_loader_name = put_str("GRUB");
    mbi->cmdline = put_str("img x");
    multiboot1_parse(&bi, info);
    CHECK(bi.image_names);
    CHECK_STR(bi.image, "img");
    CHECK_STR(bi.cmdline, "x");
}

static void mb1_unreachable(void)
{
    uint32_t info;
    multiboot_info_t *mbi;

    reset();
    EXPECT_PANIC(multiboot1_parse(&bi, 0));
    CHECK_STR(bi.protocol, "multiboot1");
    reset();
    EXPECT_PANIC(multiboot1_parse(&bi, MEM_SIZE - 16));
    reset();
    EXPECT_PANIC(multiboot1_parse(&bi, 0xfffffff0));

    /* Module list past the end of memory, or absurdly long: ignored. */
    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_MODS;
    mbi->mods_addr = MEM_SIZE - 8;
    mbi->mods_count = 1;
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 0);
    mbi->mods_addr = 0x2000;
    mbi->mods_count = 0xffffffff;
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 0);
}

/* --------------------------------------------------------- multiboot2 */

static uint64_t mb2_base;
static uint32_t mb2_off;

static void mb2_begin_at(uint64_t base)
{
    mb2_base = base;
    mb2_off = 8;
}

static void mb2_begin(void)
{
    mb2_begin_at(alloc(0x10000));
}

/* A tag with @size in its header (normally 8 + @len) and @len of @data. */
static uint64_t mb2_raw(uint32_t type, uint32_t size, const void *data,
                        size_t len)
{
    uint64_t paddr = mb2_base + mb2_off;
    struct mb2_tag *tag = va(paddr);

    tag->type = type;
    tag->size = size;
    if ( len )
        memcpy(tag + 1, data, len);
    mb2_off = ROUNDUP(mb2_off + 8 + len, 8);
    assert(mb2_base + mb2_off <= MEM_SIZE);
    return paddr;
}

static uint64_t mb2_put(uint32_t type, const void *data, size_t len)
{
    return mb2_raw(type, 8 + len, data, len);
}

static uint64_t mb2_string(uint32_t type, const char *s)
{
    return mb2_put(type, s, strlen(s) + 1);
}

static void mb2_module(uint32_t start, uint32_t end, const char *s)
{
    struct {
        uint32_t start, end;
        char s[64];
    } m = { start, end, "" };

    strlcpy(m.s, s, sizeof(m.s));
    mb2_put(MB2_TAG_MODULE, &m, 8 + strlen(s) + 1);
}

static void mb2_mmap(uint32_t entry_size, unsigned int nr,
                     const struct mb2_mmap_entry *e)
{
    static uint8_t buf[8 + 300 * 32];
    unsigned int i;

    assert(8 + nr * entry_size <= sizeof(buf));
    memset(buf, 0xa5, sizeof(buf));
    memcpy(buf, &entry_size, 4);
    memset(buf + 4, 0, 4);
    for ( i = 0; i < nr; i++ )
        memcpy(buf + 8 + i * entry_size, &e[i], MIN(entry_size, 24));
    mb2_put(MB2_TAG_MMAP, buf, 8 + nr * entry_size);
}

/* End tag and total_size; returns the info address to parse. */
static uint32_t mb2_finish(void)
{
    mb2_put(MB2_TAG_END, NULL, 0);
    ((struct mb2_info *)va(mb2_base))->total_size = mb2_off;
    return mb2_base;
}

static void mb2_grub2_loader_after_cmdline(void)
{
    reset();
    mb2_begin();
    mb2_string(MB2_TAG_CMDLINE, "loglvl=all console=com1");
    mb2_module(0x200000, 0x280000, "guest.elf console=hvc0");
    mb2_string(MB2_TAG_LOADER_NAME, "GRUB 2.12");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_STR(bi.protocol, "multiboot2");
    CHECK_STR(bi.loader, "GRUB 2.12");
    CHECK(!bi.image_names);
    CHECK_STR(bi.image, "");
    CHECK_STR(bi.cmdline, "loglvl=all console=com1");
    CHECK_EQ(bi.nr_modules, 1);
    check_mod(0, 0x200000, 0x80000, "", "guest.elf console=hvc0");
}

static void mb2_other_loader_strips(void)
{
    reset();
    mb2_begin();
    mb2_string(MB2_TAG_CMDLINE, "pvshim loglvl=all");
    mb2_module(0x200000, 0x280000, "guest.elf console=hvc0");
    mb2_string(MB2_TAG_LOADER_NAME, "iPXE 1.21");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_STR(bi.loader, "iPXE 1.21");
    CHECK(bi.image_names);
    CHECK_STR(bi.image, "pvshim");
    CHECK_STR(bi.cmdline, "loglvl=all");
    check_mod(0, 0x200000, 0x80000, "guest.elf", "console=hvc0");

    /* No loader name at all. */
    reset();
    mb2_begin();
    mb2_string(MB2_TAG_CMDLINE, "pvshim loglvl=all");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_STR(bi.loader, "");
    CHECK_STR(bi.image, "pvshim");
    CHECK_STR(bi.cmdline, "loglvl=all");
}

static void mb2_modules(void)
{
    reset();
    mb2_begin();
    mb2_module(0x200000, 0x280000, "guest.elf console=hvc0");
    mb2_string(MB2_TAG_LOADER_NAME, "kexec");
    mb2_module(0x300000, 0x300800, "initrd.img");
    mb2_module(0x400000, 0x300000, "");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.nr_modules, 3);
    check_mod(0, 0x200000, 0x80000, "guest.elf", "console=hvc0");
    check_mod(1, 0x300000, 0x800, "initrd.img", "");
    check_mod(2, 0x400000, 0, "", "");
}

static const struct mb2_mmap_entry e820[] = {
    { 0, 0x9fc00, MEMMAP_RAM, 0 },
    { 0x9fc00, 0x400, MEMMAP_RESERVED, 0 },
    { 0x100000, 0x7ee0000, MEMMAP_RAM, 0 },
    { 0x7fe0000, 0x20000, MEMMAP_ACPI, 0 },
    { 0x100000000ULL, 0x40000000, MEMMAP_RAM, 0 },
};

static void check_e820(void)
{
    unsigned int i;

    CHECK_EQ(bi.memmap.nr, ARRAY_SIZE(e820));
    for ( i = 0; i < ARRAY_SIZE(e820); i++ )
        CHECK(mem_is(i, e820[i].addr, e820[i].len, e820[i].type));
}

static void mb2_mmap_24(void)
{
    reset();
    mb2_begin();
    mb2_mmap(24, ARRAY_SIZE(e820), e820);
    multiboot2_parse(&bi, mb2_finish());
    check_e820();
}

static void mb2_mmap_32(void)
{
    reset();
    mb2_begin();
    mb2_mmap(32, ARRAY_SIZE(e820), e820);
    multiboot2_parse(&bi, mb2_finish());
    check_e820();
}

static void mb2_mmap_hostile(void)
{
    /* entry_size below an entry: the tag is ignored. */
    reset();
    mb2_begin();
    mb2_mmap(16, ARRAY_SIZE(e820), e820);
    mb2_mmap(0, 0, e820);
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.memmap.nr, 0);

    /* Too small for its own header. */
    reset();
    mb2_begin();
    mb2_raw(MB2_TAG_MMAP, 12, "\x18\0\0\0", 4);
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.memmap.nr, 0);

    /* A trailing partial entry is not read. */
    reset();
    mb2_begin();
    mb2_mmap(24, 2, e820);
    ((struct mb2_tag *)va(mb2_base + 8))->size -= 1;
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.memmap.nr, 1);
}

static void mb2_acpi(void)
{
    static const char rsdp1[20] = "RSD PTR ", rsdp2[36] = "RSD PTR ";
    uint64_t old, new;

    reset();
    mb2_begin();
    old = mb2_put(MB2_TAG_ACPI_OLD, rsdp1, sizeof(rsdp1));
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.rsdp, old + 8);
    CHECK(!memcmp(va(bi.rsdp), "RSD PTR ", 8));

    reset();
    mb2_begin();
    old = mb2_put(MB2_TAG_ACPI_OLD, rsdp1, sizeof(rsdp1));
    new = mb2_put(MB2_TAG_ACPI_NEW, rsdp2, sizeof(rsdp2));
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.rsdp, new + 8);

    reset();
    mb2_begin();
    new = mb2_put(MB2_TAG_ACPI_NEW, rsdp2, sizeof(rsdp2));
    old = mb2_put(MB2_TAG_ACPI_OLD, rsdp1, sizeof(rsdp1));
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.rsdp, new + 8);
}

static void mb2_end_stops(void)
{
    reset();
    mb2_begin();
    mb2_string(MB2_TAG_CMDLINE, "pvshim a");
    mb2_put(MB2_TAG_END, NULL, 0);
    mb2_string(MB2_TAG_LOADER_NAME, "GRUB 2.06");
    mb2_module(0x1000, 0x2000, "m");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_STR(bi.loader, "");
    CHECK_STR(bi.image, "pvshim");
    CHECK_STR(bi.cmdline, "a");
    CHECK_EQ(bi.nr_modules, 0);
}

static void mb2_tag_size_small(void)
{
    reset();
    mb2_begin();
    mb2_module(0x1000, 0x2000, "m");
    mb2_raw(0x1234, 4, NULL, 0);
    mb2_string(MB2_TAG_CMDLINE, "pvshim a");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.nr_modules, 1);
    CHECK_STR(bi.cmdline, "");

    /* Size 0 would otherwise loop forever on the same tag. */
    reset();
    mb2_begin();
    mb2_raw(MB2_TAG_CMDLINE, 0, NULL, 0);
    multiboot2_parse(&bi, mb2_finish());
    CHECK_STR(bi.cmdline, "");
}

static void mb2_tag_past_total(void)
{
    uint32_t info;

    /* The last tag claims more than total_size: ignored. */
    reset();
    mb2_begin();
    mb2_module(0x1000, 0x2000, "m");
    mb2_raw(MB2_TAG_MODULE, 0x100, "\0\0\1\0\0\0\2\0x", 9);
    info = mb2_base;
    ((struct mb2_info *)va(info))->total_size = mb2_off;
    multiboot2_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 1);

    /* total_size cuts the tag list short. */
    reset();
    mb2_begin();
    mb2_string(MB2_TAG_CMDLINE, "pvshim a");
    mb2_string(MB2_TAG_LOADER_NAME, "GRUB 2.06");
    info = mb2_finish();
    ((struct mb2_info *)va(info))->total_size = 8 + 16 + 4;
    multiboot2_parse(&bi, info);
    CHECK_STR(bi.loader, "");
    CHECK_STR(bi.cmdline, "a");

    /* total_size below the header, or just the header: no tags. */
    reset();
    mb2_begin();
    mb2_string(MB2_TAG_CMDLINE, "pvshim a");
    info = mb2_finish();
    ((struct mb2_info *)va(info))->total_size = 0;
    multiboot2_parse(&bi, info);
    ((struct mb2_info *)va(info))->total_size = 8;
    multiboot2_parse(&bi, info);
    CHECK_STR(bi.cmdline, "");
}

/*
 * Tag sizes that wrap a 32-bit offset: the tag must still count as
 * running past total_size, not be walked (mmap) or looped over forever.
 */
static void mb2_tag_size_wraps(void)
{
    static const uint32_t sizes[] = {
        0xfffffff8, 0xfffffff9, 0xffffffff, 0xfffffff0,
    };
    static const uint32_t types[] = {
        MB2_TAG_MMAP, MB2_TAG_MODULE, MB2_TAG_CMDLINE, 0x1234,
    };
    unsigned int i, j;
    uint32_t info;

    for ( i = 0; i < ARRAY_SIZE(sizes); i++ )
        for ( j = 0; j < ARRAY_SIZE(types); j++ )
        {
            reset();
            /* At the end of memory, so any read past the tags faults. */
            mb2_begin_at(MEM_SIZE - 0x40);
            mb2_module(0x1000, 0x2000, "m");
            mb2_raw(types[j], sizes[i], "\x18\0\0\0\0\0\0\0", 8);
            info = mb2_finish();
            multiboot2_parse(&bi, info);
            CHECK_EQ(bi.nr_modules, 1);
            CHECK_EQ(bi.memmap.nr, 0);
            CHECK_STR(bi.cmdline, "");
        }
}

static void mb2_unreachable(void)
{
    uint32_t info;

    reset();
    EXPECT_PANIC(multiboot2_parse(&bi, 0));
    CHECK_STR(bi.protocol, "multiboot2");
    reset();
    EXPECT_PANIC(multiboot2_parse(&bi, MEM_SIZE - 4));

    /* total_size runs past the mapped memory. */
    reset();
    mb2_begin_at(MEM_SIZE - 0x40);
    mb2_string(MB2_TAG_CMDLINE, "pvshim a");
    info = mb2_finish();
    ((struct mb2_info *)va(info))->total_size = 0x48;
    EXPECT_PANIC(multiboot2_parse(&bi, info));
    ((struct mb2_info *)va(info))->total_size = 0xffffffff;
    EXPECT_PANIC(multiboot2_parse(&bi, info));
}

static void mb2_module_too_small(void)
{
    reset();
    mb2_begin();
    mb2_raw(MB2_TAG_MODULE, 12, "\0\0\1\0", 4);
    mb2_raw(MB2_TAG_MODULE, 16, "\0\0\1\0\0\0\2\0", 8);
    mb2_raw(MB2_TAG_MODULE, 8, NULL, 0);
    mb2_module(0x1000, 0x3000, "ok");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.nr_modules, 1);
    check_mod(0, 0x1000, 0x2000, "ok", "");
}

/* ---------------------------------------------------------------- PVH */

static struct hvm_start_info *pvh_new(uint32_t *info, uint32_t version)
{
    struct hvm_start_info *si;

    *info = alloc(sizeof(*si));
    si = va(*info);
    si->magic = XEN_HVM_START_MAGIC_VALUE;
    si->version = version;
    return si;
}

static void pvh_mods(struct hvm_start_info *si, unsigned int nr)
{
    si->nr_modules = nr;
    si->modlist_paddr = alloc(nr * sizeof(struct hvm_modlist_entry));
}

static void pvh_mod(struct hvm_start_info *si, unsigned int i,
                    uint64_t paddr, uint64_t size, const char *s)
{
    struct hvm_modlist_entry *m =
        (struct hvm_modlist_entry *)va(si->modlist_paddr) + i;

    m->paddr = paddr;
    m->size = size;
    m->cmdline_paddr = s ? put_str(s) : 0;
}

static void pvh_memmap(struct hvm_start_info *si, unsigned int nr)
{
    struct hvm_memmap_table_entry *e;
    unsigned int i;

    si->memmap_entries = nr;
    si->memmap_paddr = alloc(nr * sizeof(*e));
    e = va(si->memmap_paddr);
    for ( i = 0; i < nr; i++ )
        e[i] = (struct hvm_memmap_table_entry){
            .addr = i * 0x2000ULL, .size = 0x1000,
            .type = i % 2 ? MEMMAP_RESERVED : MEMMAP_RAM };
}

static void pvh_v0(void)
{
    uint32_t info;
    struct hvm_start_info *si;

    reset();
    si = pvh_new(&info, 0);
    si->cmdline_paddr = put_str("pvshim loglvl=all");
    si->rsdp_paddr = 0xf5a40;
    pvh_memmap(si, 3);          /* present, but v0 has no such fields */
    pvh_parse(&bi, info);
    CHECK_STR(bi.protocol, "pvh");
    CHECK_STR(bi.loader, "");
    CHECK_STR(bi.image, "");
    CHECK_STR(bi.cmdline, "pvshim loglvl=all");
    CHECK(!bi.cmdline_truncated);
    CHECK_EQ(bi.rsdp, 0xf5a40);
    CHECK_EQ(bi.nr_modules, 0);
    CHECK_EQ(bi.memmap.nr, 0);
}

static void pvh_v1(void)
{
    uint32_t info;
    struct hvm_start_info *si;

    reset();
    si = pvh_new(&info, 1);
    pvh_memmap(si, 3);
    pvh_parse(&bi, info);
    CHECK_STR(bi.cmdline, "");
    CHECK_EQ(bi.rsdp, 0);
    CHECK_EQ(bi.memmap.nr, 3);
    CHECK(mem_is(0, 0, 0x1000, MEMMAP_RAM));
    CHECK(mem_is(1, 0x2000, 0x1000, MEMMAP_RESERVED));
    CHECK(mem_is(2, 0x4000, 0x1000, MEMMAP_RAM));
    CHECK_EQ(bi.memmap_dropped, 0);
}

static void pvh_modules(void)
{
    uint32_t info;
    struct hvm_start_info *si;

    reset();
    si = pvh_new(&info, 1);
    pvh_mods(si, 3);
    pvh_mod(si, 0, 0x200000, 0x80000, "console=hvc0 root=/dev/xvda");
    pvh_mod(si, 1, 0x300000, 0x1000, NULL);
    pvh_mod(si, 2, 0xffffffffffff0000ULL, 0x20000, "x");
    pvh_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 3);
    /* No image names in PVH strings. */
    check_mod(0, 0x200000, 0x80000, "", "console=hvc0 root=/dev/xvda");
    check_mod(1, 0x300000, 0x1000, "", "");
    check_mod(2, 0xffffffffffff0000ULL, 0, "", "x");
}

static void pvh_bad(void)
{
    uint32_t info;
    struct hvm_start_info *si;

    reset();
    si = pvh_new(&info, 1);
    si->magic = MULTIBOOT_BOOTLOADER_MAGIC;
    EXPECT_PANIC(pvh_parse(&bi, info));
    CHECK_STR(bi.protocol, "pvh");
    reset();
    EXPECT_PANIC(pvh_parse(&bi, 0));
    reset();
    EXPECT_PANIC(pvh_parse(&bi, MEM_SIZE - 8));

    /* Lists running outside memory: ignored, not read. */
    reset();
    si = pvh_new(&info, 1);
    si->cmdline_paddr = 0x123456789ULL;
    pvh_mods(si, 1);
    pvh_mod(si, 0, 0x1000, 0x1000, "m");
    si->nr_modules = 0xffffffff;
    pvh_memmap(si, 2);
    si->memmap_entries = 0xffffffff;
    pvh_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 0);
    CHECK_EQ(bi.memmap.nr, 0);
    CHECK_STR(bi.cmdline, "");

    reset();
    si = pvh_new(&info, 1);
    pvh_mods(si, 1);
    si->nr_modules = MEM_SIZE / sizeof(struct hvm_modlist_entry);
    pvh_memmap(si, 1);
    si->memmap_entries = MEM_SIZE / sizeof(struct hvm_memmap_table_entry);
    pvh_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 0);
    CHECK_EQ(bi.memmap.nr, 0);

    reset();
    si = pvh_new(&info, 1);
    si->modlist_paddr = 0xfffffffffffff000ULL;
    si->nr_modules = 0x100;
    si->memmap_paddr = 0xfffffffffffff000ULL;
    si->memmap_entries = 0x100;
    pvh_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, 0);
    CHECK_EQ(bi.memmap.nr, 0);
}

/* ------------------------------------------------------------- limits */

static void limit_modules(void)
{
    uint32_t info;
    multiboot_info_t *mbi;
    struct hvm_start_info *si;
    unsigned int i;

    reset();
    mbi = mb1_new(&info);
    mb1_mods(mbi, BOOT_MODULES_MAX + 3);
    for ( i = 0; i < BOOT_MODULES_MAX + 3; i++ )
        mb1_mod(mbi, i, 0x100000 * (i + 1), 0x100000 * (i + 1) + i,
                "mod arg");
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, BOOT_MODULES_MAX);
    CHECK_EQ(bi.modules_dropped, 3);
    check_mod(BOOT_MODULES_MAX - 1, 0x100000 * BOOT_MODULES_MAX,
              BOOT_MODULES_MAX - 1, "mod", "arg");

    reset();
    mb2_begin();
    for ( i = 0; i < BOOT_MODULES_MAX + 1; i++ )
        mb2_module(0x1000, 0x2000, "m");
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.nr_modules, BOOT_MODULES_MAX);
    CHECK_EQ(bi.modules_dropped, 1);

    reset();
    si = pvh_new(&info, 1);
    pvh_mods(si, BOOT_MODULES_MAX * 2);
    pvh_parse(&bi, info);
    CHECK_EQ(bi.nr_modules, BOOT_MODULES_MAX);
    CHECK_EQ(bi.modules_dropped, BOOT_MODULES_MAX);
}

static void limit_memmap(void)
{
    static struct mb2_mmap_entry many[MEMMAP_MAX + 5];
    uint32_t info;
    multiboot_info_t *mbi;
    struct hvm_start_info *si;
    unsigned int i;

    reset();
    si = pvh_new(&info, 1);
    pvh_memmap(si, MEMMAP_MAX + 44);
    pvh_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, MEMMAP_MAX);
    CHECK_EQ(bi.memmap_dropped, 44);
    CHECK(mem_is(MEMMAP_MAX - 1, (MEMMAP_MAX - 1) * 0x2000ULL, 0x1000,
                 MEMMAP_RESERVED));

    reset();
    mbi = mb1_new(&info);
    for ( i = 0; i < MEMMAP_MAX + 1; i++ )
        mb1_mmap_entry(mbi, 20, i * 0x1000ULL, 0x1000, MEMMAP_RAM);
    multiboot1_parse(&bi, info);
    CHECK_EQ(bi.memmap.nr, MEMMAP_MAX);
    CHECK_EQ(bi.memmap_dropped, 1);

    reset();
    for ( i = 0; i < ARRAY_SIZE(many); i++ )
        many[i] = (struct mb2_mmap_entry){ i * 0x1000ULL, 0x1000, 1, 0 };
    mb2_begin();
    mb2_mmap(24, ARRAY_SIZE(many), many);
    multiboot2_parse(&bi, mb2_finish());
    CHECK_EQ(bi.memmap.nr, MEMMAP_MAX);
    CHECK_EQ(bi.memmap_dropped, 5);
}

static void set_pvh_cmdline(size_t len, char c)
{
    static char s[20000];
    uint32_t info;
    struct hvm_start_info *si;

    assert(len < sizeof(s));
    reset();
    memset(s, c, len);
    s[len] = '\0';
    si = pvh_new(&info, 1);
    si->cmdline_paddr = put_str(s);
    pvh_parse(&bi, info);
}

static void limit_cmdline(void)
{
    set_pvh_cmdline(BOOT_STRING_MAX - 1, 'a');
    CHECK_EQ(strlen(bi.cmdline), BOOT_STRING_MAX - 1);
    CHECK(!bi.cmdline_truncated);

    set_pvh_cmdline(BOOT_STRING_MAX, 'b');
    CHECK_EQ(strlen(bi.cmdline), BOOT_STRING_MAX - 1);
    CHECK(bi.cmdline_truncated);
    CHECK_EQ(bi.cmdline[BOOT_STRING_MAX - 2], 'b');

    set_pvh_cmdline(BOOT_STRING_MAX + 1000, 'c');
    CHECK_EQ(bi.cmdline[BOOT_STRING_MAX - 1], '\0');
    CHECK_EQ(strlen(bi.cmdline), BOOT_STRING_MAX - 1);
    CHECK(bi.cmdline_truncated);

    /* Longer than any sane string (16 KiB): still cut, no overrun. */
    set_pvh_cmdline(19999, 'd');
    CHECK_EQ(strlen(bi.cmdline), BOOT_STRING_MAX - 1);
    CHECK(bi.cmdline_truncated);
}

static void limit_image_name(void)
{
    static char s[600];
    uint32_t info;
    multiboot_info_t *mbi;

    reset();
    memset(s, 'n', 300);
    strcpy(s + 300, " arg");
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_CMDLINE;
    mbi->cmdline = put_str(s);
    multiboot1_parse(&bi, info);
    CHECK_EQ(strlen(bi.image), sizeof(bi.image) - 1);
    CHECK_EQ(bi.image[0], 'n');
    CHECK_STR(bi.cmdline, "arg");
    CHECK(!bi.cmdline_truncated);
}

/*
 * A string with no NUL before the end of memory: what boot_ptr() vouched
 * for ends there, so reading must stop there (ASan checks it does).
 */
static void string_at_end(void)
{
    uint32_t info;
    multiboot_info_t *mbi;
    struct hvm_start_info *si;

    reset();
    si = pvh_new(&info, 1);
    si->cmdline_paddr = put_unterminated_at_end('x', 5);
    pvh_parse(&bi, info);
    CHECK_STR(bi.cmdline, "xxxxx");

    reset();
    si = pvh_new(&info, 1);
    si->cmdline_paddr = put_unterminated_at_end('y', BOOT_STRING_MAX + 1000);
    pvh_parse(&bi, info);
    CHECK_EQ(strlen(bi.cmdline), BOOT_STRING_MAX - 1);
    CHECK(bi.cmdline_truncated);

    /* The same through the image-name split, name only and name + args. */
    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_CMDLINE | MULTIBOOT_INFO_BOOT_LOADER_NAME;
    mbi->cmdline = put_unterminated_at_end('z', 7);
    mbi->boot_loader_name = mbi->cmdline + 3;
    multiboot1_parse(&bi, info);
    CHECK_STR(bi.loader, "zzzz");
    CHECK_STR(bi.image, "zzzzzzz");
    CHECK_STR(bi.cmdline, "");

    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_CMDLINE;
    mbi->cmdline = put_unterminated_at_end('a', 6);
    memcpy(va(mbi->cmdline), "img ar", 6);
    multiboot1_parse(&bi, info);
    CHECK_STR(bi.image, "img");
    CHECK_STR(bi.cmdline, "ar");

    reset();
    mbi = mb1_new(&info);
    mbi->flags = MULTIBOOT_INFO_CMDLINE;
    mbi->cmdline = put_unterminated_at_end('w', 1);
    multiboot1_parse(&bi, info);
    CHECK_STR(bi.image, "w");
}

/* -------------------------------------------------------------- split */

static void split(const char *in, const char *cmdline, const char *extra)
{
    memset(&bi, 0, sizeof(bi));
    strlcpy(bi.cmdline, in, sizeof(bi.cmdline));
    boot_split_guest_extra(&bi);
    CHECK_STR(bi.cmdline, cmdline);
    CHECK_STR(bi.guest_extra, extra);
}

static void split_guest_extra(void)
{
    split("a b -- c d", "a b ", "c d");
    split("--", "", "");
    split("-- x", "", "x");
    split("a -- ", "a ", "");
    split("a --", "a ", "");
    split("a --b", "a --b", "");
    split("a b--c -- d", "a b--c ", "d");
    split("a --- b", "a --- b", "");
    split("a -- b -- c", "a ", "b -- c");
    split("loglvl=all", "loglvl=all", "");
    split("", "", "");
}

int main(void)
{
    /* Keep earlier results if a case crashes; a hang fails the run. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    alarm(60);

    RUN(mb1_qemu);
    RUN(mb1_mmap_stride);
    RUN(mb1_mmap_hostile);
    RUN(mb1_mem_fallback);
    RUN(mb1_grub2);
    RUN(mb1_strings);
    RUN(mb1_unreachable);
    RUN(mb2_grub2_loader_after_cmdline);
    RUN(mb2_other_loader_strips);
    RUN(mb2_modules);
    RUN(mb2_mmap_24);
    RUN(mb2_mmap_32);
    RUN(mb2_mmap_hostile);
    RUN(mb2_acpi);
    RUN(mb2_end_stops);
    RUN(mb2_tag_size_small);
    RUN(mb2_tag_past_total);
    RUN(mb2_module_too_small);
    RUN(mb2_unreachable);
    RUN(pvh_v0);
    RUN(pvh_v1);
    RUN(pvh_modules);
    RUN(pvh_bad);
    RUN(limit_modules);
    RUN(limit_memmap);
    RUN(limit_cmdline);
    RUN(limit_image_name);
    RUN(split_guest_extra);
    RUN(string_at_end);
    RUN(mb2_tag_size_wraps);
    UNIT_EXIT();
}
