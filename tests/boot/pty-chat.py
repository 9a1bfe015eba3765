#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# pty-chat.py LOG COMMAND...: run COMMAND on a pseudo-terminal (virsh
# console wants one: it refuses a pipe) and hold the conversation that
# stdin scripts, one step a line, like a tiny expect(1):
#
#   expect SECONDS REGEX   wait until the output since the last match
#                          matches REGEX (Python re), at most SECONDS
#   send TEXT              type TEXT (backslash escapes as in Python: \r,
#                          \x1d is virsh console's escape, Ctrl-])
#   resend SECONDS TEXT    during the next expect, type TEXT again each
#                          SECONDS it goes unmatched (a prompt printed
#                          before we looked, or lost)
#   wait SECONDS           wait for COMMAND to exit, at most SECONDS
#
# Everything COMMAND prints is appended to LOG.  Exit status 0 when every
# step is done; 1 with a line on stderr saying which step failed (a
# deadline passed, or COMMAND ended first); COMMAND is killed at the end.
import codecs
import os
import pty
import re
import select
import signal
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: pty-chat.py LOG COMMAND...")
    steps = [l.rstrip("\n") for l in sys.stdin if l.strip()]
    log = open(sys.argv[1], "ab", buffering=0)
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(sys.argv[2], sys.argv[2:])
        finally:
            os._exit(127)

    buf = b""
    eof = False

    def read_for(deadline):
        """Read what COMMAND prints until the deadline; False at EOF."""
        nonlocal buf, eof
        left = deadline - time.monotonic()
        if eof or left <= 0:
            return False
        r, _, _ = select.select([fd], [], [], min(left, 1.0))
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:         # EIO: the child closed the pty
                data = b""
            if not data:
                eof = True
                return False
            log.write(data)
            buf += data
        return True

    def fail(why):
        print("pty-chat: %s" % why, file=sys.stderr)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        sys.exit(1)

    def text(arg):
        return codecs.decode(arg, "unicode_escape").encode("latin-1")

    resend = None
    for step in steps:
        op, _, arg = step.partition(" ")
        if op == "expect":
            secs, _, pattern = arg.partition(" ")
            rx = re.compile(pattern.encode())
            now = time.monotonic()
            deadline = now + float(secs)
            if resend:
                again = now + resend[0]
            while True:
                m = rx.search(buf)
                if m:
                    buf = buf[m.end():]
                    break
                if resend and time.monotonic() >= again:
                    os.write(fd, resend[1])
                    again = time.monotonic() + resend[0]
                if not read_for(min(deadline, again) if resend else
                                deadline) and (eof or
                                               time.monotonic() >= deadline):
                    fail("%s waiting for /%s/ (unmatched: %r)" % (
                        "the command ended" if eof else
                        "%s s passed" % secs, pattern, buf[-200:]))
            resend = None
        elif op == "send":
            os.write(fd, text(arg))
        elif op == "resend":
            secs, _, what = arg.partition(" ")
            resend = (float(secs), text(what))
        elif op == "wait":
            deadline = time.monotonic() + float(arg)
            while read_for(deadline) or (not eof and
                                         time.monotonic() < deadline):
                pass
            if not eof:
                fail("the command still runs after %s s" % arg)
        else:
            fail("unknown step '%s'" % step)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


main()
