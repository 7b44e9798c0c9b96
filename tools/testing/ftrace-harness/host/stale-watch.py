# SPDX-License-Identifier: GPL-2.0
#
# Sourced by stale-watch.sh inside gdb, connected to a running x86_64
# guest's gdb stub with no symbols: one look for the emulator's stale
# translation of patched code (hang-dump.py says what that is), and the
# cure when it is found.  stale-watch.sh sets FH_ENTRY, asm_exc_int3's
# address, before sourcing this.
#
# The guest runs on for a quarter of a second with a breakpoint on the
# int3 entry.  A healthy guest seldom takes an int3 (only while code is
# being patched, or a kprobe's), and then memory holds the 0xcc it trapped
# on.  A vCPU in the loop is back at the entry within microseconds, each
# time from the same site, whose byte in memory is not 0xcc: three such
# hits in a row make it STALE.  Then one single step of that vCPU: QEMU
# flushes its translations when single-stepping starts, and the vCPU runs
# what memory holds.  On a correct emulator a flush changes nothing the
# guest can see, so the cure cannot hide a fault of the kernel's: a real
# int3 loop, with 0xcc in memory, is not STALE and is left alone.
import os
import signal
import threading

import gdb

HITS = 3
WAIT = 0.25   # seconds the guest runs between hits at the int3 entry
KERNEL_CS = 0x10
# FH_STALE_DEBUG=1: say what each look saw (for testing the watcher).
DEBUG = os.environ.get("FH_STALE_DEBUG") == "1"


def debug(msg):
    if DEBUG:
        print("stale-watch: debug: " + msg)


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & (2**64 - 1)


def run_until_entry():
    """Let the guest run until a vCPU hits the breakpoint, or interrupt it
    after WAIT seconds.  True if one stopped at the entry."""
    timer = threading.Timer(WAIT, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        pass
    finally:
        timer.cancel()
    return reg("pc") == FH_ENTRY    # noqa: F821 (set by stale-watch.sh)


def trapped_site():
    """At the entry's first instruction, the hardware frame: RIP just past
    the int3, then CS.  The site's address, or None if not kernel code."""
    inf = gdb.selected_inferior()
    frame = bytes(inf.read_memory(reg("rsp"), 16))
    rip = int.from_bytes(frame[:8], "little")
    cs = int.from_bytes(frame[8:16], "little") & 0xFFFF
    if cs != KERNEL_CS:
        return None
    return rip - 1


def look():
    """(thread, site, bytes) of a STALE vCPU, or None."""
    seen = None
    for _ in range(HITS):
        if not run_until_entry():
            debug("no int3 within %gs (pc 0x%x)" % (WAIT, reg("pc")))
            return None
        th = gdb.selected_thread()
        site = trapped_site()
        if site is None or (seen is not None and seen[:2] != (th.num, site)):
            return None
        b = bytes(gdb.selected_inferior().read_memory(site, 5))
        debug("vCPU %d at the int3 entry from 0x%x, memory %s" %
              (th.num - 1, site, b.hex()))
        if b[0] == 0xCC:
            return None
        seen = (th.num, site, b)
    return th, site, b


def main():
    gdb.execute("hbreak *0x%x" % FH_ENTRY, to_string=True)  # noqa: F821
    found = look()
    gdb.execute("delete", to_string=True)
    if found is None:
        return
    th, site, b = found
    th.switch()
    gdb.execute("set scheduler-locking on")
    gdb.execute("stepi", to_string=True)
    print("stale-watch: STALE: vCPU %d trapped %d times in a row on an int3 "
          "at 0x%x that memory no longer holds (memory: %s); its "
          "translations flushed, pc now 0x%x" %
          (th.num - 1, HITS, site, " ".join("%02x" % c for c in b),
           reg("pc")))


main()
