# SPDX-License-Identifier: GPL-2.0
#
# Sourced by hang-dump.sh inside gdb, connected to a guest's gdb stub:
# what each vCPU is doing, sampled a few times, and whether one of them
# is caught in the loop that an emulator's stale translation of patched
# code makes.
#
# That loop (seen under QEMU 7.2 and 10.0.2 with multi-threaded TCG, on
# x86_64, at ftrace's call sites and at jump labels): a vCPU translated
# a site while it held the int3 of a batch; the write that ended the
# batch did not discard that translation, so the vCPU keeps trapping on
# an int3 that memory no longer holds.  The kernel's int3 handlers find
# no batch and restart the instruction, as hardware needs, and the vCPU
# runs its stale copy again, with interrupts off: the other vCPU waits
# for it in text_poke_sync() for ever.  Memory is the witness: at the trapping
# address it holds the call, jump or NOP, not 0xcc.
import gdb

# The entry stub only: the frame gdb puts above exc_int3() is the stub's,
# and the byte before its return address is no site.
INT3_ENTRY = "asm_exc_int3"
NOP5 = bytes([0x0F, 0x1F, 0x44, 0x00, 0x00])
NOP2 = bytes([0x66, 0x90])


def mem(addr, n):
    try:
        return bytes(gdb.selected_inferior().read_memory(addr, n))
    except gdb.error:
        return None


def hexbytes(b):
    return " ".join("%02x" % c for c in b) if b is not None else "(unreadable)"


def where(addr):
    try:
        return gdb.execute("info symbol 0x%x" % addr, to_string=True).strip()
    except gdb.error:
        return "0x%x" % addr


def stale_int3(frame):
    """(address, bytes) of an int3 this vCPU trapped on that memory no
    longer holds (a call, jump or NOP there now), or None.  At the int3
    entry's first instruction the frame above it is the interrupted one,
    its pc just past the int3."""
    f = frame
    depth = 0
    while f is not None and depth < 8:
        if f.name() == INT3_ENTRY and f.older() is not None:
            site = f.older().pc() - 1
            b = mem(site, 5)
            # Only a patched instruction in text, so that a frame gdb
            # could not unwind is not taken for one: a call, a jump or a
            # NOP, as ftrace and jump labels write them.
            if b is None or not (b[0] in (0xE8, 0xE9, 0xEB) or
                                 b == NOP5 or b[:2] == NOP2):
                return None
            if "text" not in where(site).rpartition(" in section ")[2]:
                return None
            return site, b
        f = f.older()
        depth += 1
    return None


def main():
    inf = gdb.selected_inferior()
    stale = []
    for th in sorted(inf.threads(), key=lambda t: t.num):
        th.switch()
        f = gdb.newest_frame()
        pc = f.pc()
        print("--- vCPU %d: pc %s, bytes %s" %
              (th.num - 1, where(pc), hexbytes(mem(pc, 8))))
        try:
            gdb.execute("bt 20")
            gdb.execute("info registers eflags" if "i386" in
                        inf.architecture().name() else "info registers cpsr")
        except gdb.error as e:
            print("(%s)" % e)
        found = stale_int3(f)
        if found is not None:
            stale.append((th.num - 1,) + found)
    for cpu, site, b in stale:
        print("hang-dump: STALE: vCPU %d traps on an int3 at %s that memory "
              "no longer holds (memory: %s): the emulator is running a stale "
              "translation of patched code" % (cpu, where(site), hexbytes(b)))


main()
