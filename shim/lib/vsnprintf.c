/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vsnprintf()/snprintf() with C99 semantics for the conversions the shim
 * uses: flags -0#+space, width and precision (also '*'), lengths hh h l ll
 * z t, conversions d i u x X o c s p %.
 */
#include "shim/lib.h"

/* Output: bytes past size - 1 are counted but not stored. */
struct sink {
    char *buf;
    size_t size;
    size_t pos;
};

struct spec {
    bool left, zero, alt, plus, space;
    int width;
    int prec;                       /* -1: none given */
};

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_T };

static void put(struct sink *o, char c)
{
    if ( o->pos + 1 < o->size )
        o->buf[o->pos] = c;
    o->pos++;
}

static void pad(struct sink *o, char c, int n)
{
    for ( ; n > 0; n-- )
        put(o, c);
}

static void put_string(struct sink *o, const char *s, const struct spec *sp)
{
    size_t len = sp->prec >= 0 ? strnlen(s, sp->prec) : strlen(s);
    int fill = sp->width > (int)len ? sp->width - (int)len : 0;

    if ( !sp->left )
        pad(o, ' ', fill);
    while ( len-- )
        put(o, *s++);
    if ( sp->left )
        pad(o, ' ', fill);
}

/*
 * Lay out [spaces][sign][prefix][zeros][digits][spaces] as C99 7.19.6.1
 * describes: precision is the minimum digit count (0 prints nothing for
 * 0), '0' pads with zeros only without '-' or a precision, "%#o" makes
 * sure the first digit is 0.
 */
static void put_number(struct sink *o, unsigned long long val,
                       unsigned int base, bool upper, char sign,
                       const char *prefix, const struct spec *sp)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    int ndigits = 0, nzeros, len;

    if ( val || sp->prec != 0 )
        do {
            tmp[ndigits++] = digits[val % base];
            val /= base;
        } while ( val );

    nzeros = sp->prec > ndigits ? sp->prec - ndigits : 0;
    if ( sp->alt && base == 8 && !nzeros &&
         (!ndigits || tmp[ndigits - 1] != '0') )
        nzeros = 1;

    len = !!sign + (int)strlen(prefix) + nzeros + ndigits;
    if ( sp->zero && !sp->left && sp->prec < 0 && sp->width > len )
    {
        nzeros += sp->width - len;
        len = sp->width;
    }

    if ( !sp->left )
        pad(o, ' ', sp->width - len);
    if ( sign )
        put(o, sign);
    while ( *prefix )
        put(o, *prefix++);
    pad(o, '0', nzeros);
    while ( ndigits )
        put(o, tmp[--ndigits]);
    if ( sp->left )
        pad(o, ' ', sp->width - len);
}

static unsigned long long get_unsigned(va_list *ap, enum length l)
{
    switch ( l )
    {
    case LEN_HH: return (unsigned char)va_arg(*ap, unsigned int);
    case LEN_H:  return (unsigned short)va_arg(*ap, unsigned int);
    case LEN_L:  return va_arg(*ap, unsigned long);
    case LEN_LL: return va_arg(*ap, unsigned long long);
    case LEN_Z:  return va_arg(*ap, size_t);
    case LEN_T:  return (size_t)va_arg(*ap, ptrdiff_t);
    default:     return va_arg(*ap, unsigned int);
    }
}

static long long get_signed(va_list *ap, enum length l)
{
    switch ( l )
    {
    case LEN_HH: return (signed char)va_arg(*ap, int);
    case LEN_H:  return (short)va_arg(*ap, int);
    case LEN_L:  return va_arg(*ap, long);
    case LEN_LL: return va_arg(*ap, long long);
    case LEN_Z:  return (ptrdiff_t)va_arg(*ap, size_t);
    case LEN_T:  return va_arg(*ap, ptrdiff_t);
    default:     return va_arg(*ap, int);
    }
}

/* Parse "[flags][width][.prec][length]"; returns the conversion char. */
static const char *parse_spec(const char *fmt, va_list *ap, struct spec *sp,
                              enum length *l)
{
    *sp = (struct spec){ .prec = -1 };

    for ( ; ; fmt++ )
    {
        if ( *fmt == '-' )
            sp->left = true;
        else if ( *fmt == '0' )
            sp->zero = true;
        else if ( *fmt == '#' )
            sp->alt = true;
        else if ( *fmt == '+' )
            sp->plus = true;
        else if ( *fmt == ' ' )
            sp->space = true;
        else
            break;
    }

    if ( *fmt == '*' )
    {
        fmt++;
        sp->width = va_arg(*ap, int);
        if ( sp->width < 0 )
        {
            sp->left = true;
            sp->width = sp->width == INT32_MIN ? INT32_MAX : -sp->width;
        }
    }
    else
        for ( ; *fmt >= '0' && *fmt <= '9'; fmt++ )
            if ( sp->width < INT32_MAX / 10 - 9 )
                sp->width = sp->width * 10 + (*fmt - '0');

    if ( *fmt == '.' )
    {
        fmt++;
        sp->prec = 0;
        if ( *fmt == '*' )
        {
            fmt++;
            sp->prec = va_arg(*ap, int);
            if ( sp->prec < 0 )
                sp->prec = -1;
        }
        else
            for ( ; *fmt >= '0' && *fmt <= '9'; fmt++ )
                if ( sp->prec < INT32_MAX / 10 - 9 )
                    sp->prec = sp->prec * 10 + (*fmt - '0');
    }

    *l = LEN_NONE;
    if ( *fmt == 'h' )
        *l = *++fmt == 'h' ? (fmt++, LEN_HH) : LEN_H;
    else if ( *fmt == 'l' )
        *l = *++fmt == 'l' ? (fmt++, LEN_LL) : LEN_L;
    else if ( *fmt == 'z' )
        *l = (fmt++, LEN_Z);
    else if ( *fmt == 't' )
        *l = (fmt++, LEN_T);

    return fmt;
}

/* One conversion; an unknown one is copied through as "%<char>". */
static void convert(struct sink *o, char conv, va_list *ap,
                    const struct spec *sp, enum length l)
{
    unsigned long long u;
    long long s;
    char c, sign = 0;

    switch ( conv )
    {
    case 'd': case 'i':
        s = get_signed(ap, l);
        u = s < 0 ? -(unsigned long long)s : (unsigned long long)s;
        if ( s < 0 )
            sign = '-';
        else if ( sp->plus )
            sign = '+';
        else if ( sp->space )
            sign = ' ';
        put_number(o, u, 10, false, sign, "", sp);
        break;

    case 'u':
        put_number(o, get_unsigned(ap, l), 10, false, 0, "", sp);
        break;

    case 'o':
        put_number(o, get_unsigned(ap, l), 8, false, 0, "", sp);
        break;

    case 'x': case 'X':
        u = get_unsigned(ap, l);
        put_number(o, u, 16, conv == 'X', 0,
                   sp->alt && u ? (conv == 'X' ? "0X" : "0x") : "", sp);
        break;

    case 'p':
    {
        struct spec p = { .left = sp->left, .width = sp->width, .prec = 16 };

        u = (uintptr_t)va_arg(*ap, void *);
        put_number(o, u, 16, false, 0, "0x", &p);
        break;
    }

    case 'c':
        c = (char)va_arg(*ap, int);
        if ( !sp->left )
            pad(o, ' ', sp->width - 1);
        put(o, c);
        if ( sp->left )
            pad(o, ' ', sp->width - 1);
        break;

    case 's':
    {
        const char *str = va_arg(*ap, const char *);

        put_string(o, str ? str : "(null)", sp);
        break;
    }

    case '%':
        put(o, '%');
        break;

    default:
        put(o, '%');
        if ( conv )
            put(o, conv);
        break;
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    struct sink o = { .buf = buf, .size = size };
    struct spec sp;
    enum length l;
    va_list ap;

    va_copy(ap, args);
    while ( *fmt )
    {
        if ( *fmt != '%' )
        {
            put(&o, *fmt++);
            continue;
        }

        fmt = parse_spec(fmt + 1, &ap, &sp, &l);
        convert(&o, *fmt, &ap, &sp, l);
        if ( *fmt )
            fmt++;
    }
    va_end(ap);

    if ( size )
        buf[MIN(o.pos, size - 1)] = '\0';

    return o.pos > INT32_MAX ? INT32_MAX : (int)o.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list args;
    int ret;

    va_start(args, fmt);
    ret = vsnprintf(buf, size, fmt, args);
    va_end(args);

    return ret;
}
