/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the console ring backend (backends/console/console.c):
 * output copied out and line ends made clean, a bogus producer clamped,
 * the guest notified only when something was consumed, input routed into
 * in[] once the ring is in use and never past its room; the 'b' key's
 * line.
 */
/* As the shim is built (Makefile), not the headers' old default. */
#define __XEN_INTERFACE_VERSION__ 0x00040e00
#include "tests/unit/unit.h"
#include "../../backends/console/console.c"
#include "tests/unit/log-capture.h"

static struct xencons_interface page;
static bool have_page = true;
static char written[8192];
static size_t written_len;
static unsigned int notified;
static const char *input;
static void (*softirq_fn)(void);
static void (*hook_fn)(void);

struct xencons_interface *pv_console_ring(void)
{
    return have_page ? &page : NULL;
}

void pv_evtchn_notify_guest(unsigned int port)
{
    CHECK_EQ(port, EVTCHN_CONSOLE_PORT);
    notified++;
}

void console_write_raw(const char *buf, size_t len)
{
    CHECK(written_len + len < sizeof(written));
    memcpy(written + written_len, buf, len);
    written_len += len;
    written[written_len] = '\0';
}

int console_input_getc(void)
{
    return input && *input ? (unsigned char)*input++ : -1;
}

unsigned int console_input_pending(void)
{
    return input ? strlen(input) : 0;
}

void console_input_dump(void)
{
    printk("<serial input>\n");
}

void open_softirq(unsigned int nr, void (*handler)(void))
{
    CHECK_EQ(nr, CONSOLE_SOFTIRQ);
    softirq_fn = handler;
}

void shutdown_hook_register(void (*fn)(void))
{
    hook_fn = fn;
}

static void reset(void)
{
    memset(&page, 0, sizeof(page));
    written_len = 0;
    written[0] = '\0';
    notified = 0;
    input = NULL;
    ring_in_use = false;
    last_cr = false;
    console_backend_init();
}

static void put(const char *s)
{
    while ( *s )
        page.out[MASK_XENCONS_IDX(page.out_prod++, page.out)] = *s++;
}

static void test_line_ends(void)
{
    reset();
    put("a\r\nb\nc\r");
    softirq_fn();
    CHECK_STR(written, "a\r\nb\r\nc\r");
    CHECK_EQ(page.out_cons, page.out_prod);
    CHECK_EQ(notified, 1);
    /* The '\r' ended the last batch: this '\n' needs no other. */
    put("\nd\n");
    softirq_fn();
    CHECK_STR(written, "a\r\nb\r\nc\r\nd\r\n");
    CHECK_EQ(notified, 2);
}

static void test_empty_no_notify(void)
{
    reset();
    softirq_fn();
    CHECK_EQ(notified, 0);
    CHECK_EQ(written_len, 0);
    have_page = false;
    put("x");
    softirq_fn();
    hook_fn();
    CHECK_EQ(written_len, 0);
    have_page = true;
}

static void test_bogus_producer(void)
{
    reset();
    page.out_cons = 5;
    page.out_prod = 5 + 0x100000;
    softirq_fn();
    CHECK_EQ(page.out_cons, page.out_prod);
    CHECK_EQ(notified, 1);
    CHECK(written_len >= sizeof(page.out));
    /* A consumer ahead of the producer wraps the same way. */
    page.out_cons = page.out_prod + 1;
    softirq_fn();
    CHECK_EQ(page.out_cons, page.out_prod);
}

static void test_wrap(void)
{
    reset();
    page.out_cons = page.out_prod = 0xfffffffe;
    put("wrap");
    softirq_fn();
    CHECK_STR(written, "wrap");
    CHECK_EQ(page.out_cons, 2);
}

static void test_flush_hook(void)
{
    reset();
    put("unnotified\n");
    hook_fn();
    CHECK_STR(written, "unnotified\r\n");
    CHECK_EQ(notified, 0);
}

static void test_input_waits_for_ring_use(void)
{
    reset();
    input = "ls\r";
    softirq_fn();
    CHECK_EQ(page.in_prod, 0);
    CHECK_EQ(notified, 0);
    CHECK_EQ(console_input_pending(), 3);
    /* The guest writes a prompt: from now on input goes to the ring. */
    put("# ");
    softirq_fn();
    CHECK_EQ(page.in_prod, 3);
    CHECK(!memcmp(page.in, "ls\r", 3));
    CHECK_EQ(notified, 1);
}

static void test_input_room(void)
{
    static char lots[2000];

    reset();
    memset(lots, 'x', sizeof(lots) - 1);
    lots[sizeof(lots) - 1] = '\0';
    input = lots;
    page.in_cons = 1;                   /* the guest has taken input */
    page.in_prod = 1;
    softirq_fn();
    CHECK_EQ(page.in_prod - page.in_cons, sizeof(page.in));
    CHECK_EQ(notified, 1);
    /* Full, input waiting: the guest is told again, nothing written. */
    softirq_fn();
    CHECK_EQ(page.in_prod - page.in_cons, sizeof(page.in));
    CHECK_EQ(notified, 2);
    /* A producer the guest moved out of range: the ring is left alone. */
    page.in_prod = page.in_cons + sizeof(page.in) + 5;
    softirq_fn();
    CHECK_EQ(page.in_prod, page.in_cons + sizeof(page.in) + 5);
}

/* 'b': the four indexes as they are, where input goes, then the UART's. */
static void test_dump(void)
{
    reset();
    log_len = 0;
    log_buf[0] = '\0';
    have_page = false;
    console_dump();
    CHECK_STR(log_buf, "console: no ring\n<serial input>\n");
    have_page = true;
    log_len = 0;
    page.out_cons = 0x10;
    page.out_prod = 0x2345;             /* what the guest wrote: not clamped */
    page.in_cons = 7;
    page.in_prod = 9;
    console_dump();
    CHECK_STR(log_buf, "console: out cons 0x10 prod 0x2345, in cons 0x7 "
                 "prod 0x9; input to CONSOLEIO_read\n<serial input>\n");
    log_len = 0;
    ring_in_use = true;
    console_dump();
    CHECK(strstr(log_buf, "; input to the ring\n"));
}

int main(void)
{
    RUN(test_line_ends);
    RUN(test_empty_no_notify);
    RUN(test_bogus_producer);
    RUN(test_wrap);
    RUN(test_flush_hook);
    RUN(test_input_waits_for_ring_use);
    RUN(test_input_room);
    RUN(test_dump);
    UNIT_EXIT();
}
