/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkcpio: write a cpio archive in the "newc" format Linux unpacks as its
 * initramfs (Documentation/driver-api/early-userspace/buffer-format.rst),
 * from a list of entries on stdin, one a line:
 *
 *   dir   PATH MODE
 *   file  PATH MODE HOSTFILE
 *   slink PATH TARGET
 *   nod   PATH MODE c|b MAJOR MINOR
 *
 * MODE is octal permission bits; everything is owned by root, dated 0.
 * The archive goes to stdout.  Exit status 1 with a message on a bad line
 * or an unreadable file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned long ino = 300000;
static unsigned long offset;

static void out(const void *p, size_t n)
{
    if ( n && fwrite(p, 1, n, stdout) != n )
    {
        perror("mkcpio: write");
        exit(1);
    }
    offset += n;
}

static void pad4(void)
{
    static const char zero[4];

    out(zero, (4 - offset % 4) % 4);
}

/* One header, the name (NUL-terminated) and the data, each 4-aligned. */
static void entry(const char *name, unsigned int mode, unsigned int rmajor,
                  unsigned int rminor, const void *data, size_t size)
{
    char hdr[160];
    const char *n = name[0] == '/' ? name + 1 : name;

    if ( size > 0xffffffffUL )
    {
        fprintf(stderr, "mkcpio: %s: too big for newc\n", name);
        exit(1);
    }
    /* Magic, then 13 fields of 8 hex digits: 110 bytes. */
    snprintf(hdr, sizeof(hdr), "070701%08lX%08X%08X%08X%08X%08X%08X"
             "%08X%08X%08X%08X%08X%08X", ino++ & 0xffffffffUL, mode, 0, 0, 1,
             0, (unsigned int)size, 0, 0, rmajor, rminor,
             (unsigned int)strlen(n) + 1, 0);
    out(hdr, 110);
    out(n, strlen(n) + 1);
    pad4();
    out(data, size);
    pad4();
}

static void *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;

    if ( !f )
        return NULL;
    do {
        if ( n == cap )
        {
            cap = cap ? cap * 2 : 1 << 20;
            if ( !(buf = realloc(buf, cap)) )
            {
                perror("mkcpio");
                exit(1);
            }
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while ( got );
    fclose(f);
    *size = n;
    return buf;
}

int main(void)
{
    char line[4096], kind[16], path[1024], arg[2048], type;
    unsigned int mode, major, minor, nr = 0;

    while ( fgets(line, sizeof(line), stdin) )
    {
        nr++;
        if ( line[0] == '#' || line[strspn(line, " \t\n")] == '\0' )
            continue;
        if ( sscanf(line, "%15s %1023s", kind, path) != 2 )
            goto bad;
        if ( !strcmp(kind, "dir") && sscanf(line, "%*s %*s %o", &mode) == 1 )
            entry(path, S_IFDIR | mode, 0, 0, NULL, 0);
        else if ( !strcmp(kind, "slink") &&
                  sscanf(line, "%*s %*s %2047s", arg) == 1 )
            entry(path, S_IFLNK | 0777, 0, 0, arg, strlen(arg));
        else if ( !strcmp(kind, "nod") &&
                  sscanf(line, "%*s %*s %o %c %u %u", &mode, &type, &major,
                         &minor) == 4 && (type == 'c' || type == 'b') )
            entry(path, (type == 'c' ? S_IFCHR : S_IFBLK) | mode, major,
                  minor, NULL, 0);
        else if ( !strcmp(kind, "file") &&
                  sscanf(line, "%*s %*s %o %2047s", &mode, arg) == 2 )
        {
            size_t size;
            void *data = slurp(arg, &size);

            if ( !data )
            {
                fprintf(stderr, "mkcpio: %s: %s\n", arg, strerror(errno));
                return 1;
            }
            entry(path, S_IFREG | mode, 0, 0, data, size);
            free(data);
        }
        else
            goto bad;
    }
    entry("TRAILER!!!", 0, 0, 0, NULL, 0);
    return fflush(stdout) ? 1 : 0;

 bad:
    fprintf(stderr, "mkcpio: line %u: cannot parse: %s", nr, line);
    return 1;
}
