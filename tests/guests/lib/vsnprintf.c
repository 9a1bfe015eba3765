/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small vsnprintf: %d %i %u %x %X %p %s %c %%; the flags '-', '0' and
 * '#' (0x before %x); a width or '*'; a precision for %s or '.*'; the
 * length modifiers l, ll and z (h and hh are accepted, and print the
 * promoted int).  Returns the length the whole output needs, as C's does.
 */
#include "guest.h"

struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, char c)
{
    if ( o->len + 1 < o->size )
        o->buf[o->len] = c;
    o->len++;
}

static void puts_n(struct out *o, const char *s, int n)
{
    while ( n-- > 0 )
        put(o, *s++);
}

static void pad(struct out *o, char c, int n)
{
    while ( n-- > 0 )
        put(o, c);
}

/*
 * @prefix ("-", "0x" or "") then @len bytes of @s, in a field of @width:
 * right-aligned with @padc unless @left; zeros go after the prefix.
 */
static void field(struct out *o, const char *prefix, const char *s, int len,
                  int width, bool left, char padc)
{
    int plen = strlen(prefix);
    int fill = width > plen + len ? width - plen - len : 0;

    if ( !left && padc == ' ' )
        pad(o, ' ', fill);
    puts_n(o, prefix, plen);
    if ( !left && padc == '0' )
        pad(o, '0', fill);
    puts_n(o, s, len);
    if ( left )
        pad(o, ' ', fill);
}

/* The digits of @v in @base into @tmp; returns their count. */
static int digits(char *tmp, unsigned long long v, unsigned int base,
                  bool upper)
{
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char rev[24];
    int n = 0, len = 0;

    do {
        rev[n++] = set[v % base];
        v /= base;
    } while ( v );

    while ( n )
        tmp[len++] = rev[--n];

    return len;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    struct out o = { .buf = buf, .size = size };

    for ( ; *fmt; fmt++ )
    {
        bool left = false, alt = false;
        char padc = ' ', tmp[24];
        int width = 0, prec = -1, lng = 0, len;
        unsigned long long v;
        const char *s;

        if ( *fmt != '%' )
        {
            put(&o, *fmt);
            continue;
        }

        for ( fmt++; ; fmt++ )          /* flags */
        {
            if ( *fmt == '-' )
                left = true;
            else if ( *fmt == '0' )
                padc = '0';
            else if ( *fmt == '#' )
                alt = true;
            else
                break;
        }

        if ( *fmt == '*' )
        {
            width = va_arg(args, int);
            fmt++;
        }
        else
            while ( *fmt >= '0' && *fmt <= '9' )
                width = width * 10 + (*fmt++ - '0');

        if ( *fmt == '.' )
        {
            fmt++;
            prec = 0;
            if ( *fmt == '*' )
            {
                prec = va_arg(args, int);
                fmt++;
            }
            else
                while ( *fmt >= '0' && *fmt <= '9' )
                    prec = prec * 10 + (*fmt++ - '0');
        }

        for ( ; ; fmt++ )               /* length: how many of l or z */
        {
            if ( *fmt == 'l' || *fmt == 'z' )
                lng++;
            else if ( *fmt != 'h' )
                break;
        }

        switch ( *fmt )
        {
        case 'c':
            tmp[0] = va_arg(args, int);
            field(&o, "", tmp, 1, width, left, ' ');
            break;

        case 's':
            s = va_arg(args, const char *);
            if ( !s )
                s = "(null)";
            len = prec >= 0 ? (int)strnlen(s, prec) : (int)strlen(s);
            field(&o, "", s, len, width, left, ' ');
            break;

        case 'p':
            v = (unsigned long)va_arg(args, void *);
            len = digits(tmp, v, 16, false);
            field(&o, "0x", tmp, len, 2 + 2 * sizeof(void *), false, '0');
            break;

        case 'd':
        case 'i':
        {
            long long sv = lng > 1 ? va_arg(args, long long)
                         : lng ? va_arg(args, long) : va_arg(args, int);

            v = sv < 0 ? -(unsigned long long)sv : (unsigned long long)sv;
            len = digits(tmp, v, 10, false);
            field(&o, sv < 0 ? "-" : "", tmp, len, width, left, padc);
            break;
        }

        case 'u':
        case 'x':
        case 'X':
            v = lng > 1 ? va_arg(args, unsigned long long)
              : lng ? va_arg(args, unsigned long) : va_arg(args, unsigned int);
            len = digits(tmp, v, *fmt == 'u' ? 10 : 16, *fmt == 'X');
            field(&o, alt && *fmt != 'u' ? "0x" : "", tmp, len, width, left,
                  padc);
            break;

        case '%':
            put(&o, '%');
            break;

        default:                        /* unknown: print it as it was */
            put(&o, '%');
            if ( !*fmt )
                fmt--;
            else
                put(&o, *fmt);
            break;
        }
    }

    if ( o.size )
        o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';

    return o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    int len;

    va_start(args, fmt);
    len = vsnprintf(buf, size, fmt, args);
    va_end(args);

    return len;
}
