#!/usr/bin/env python3
"""Summarise `cuobjdump -sass` output: per kernel, the memory instructions it contains.

usage: cuobjdump -sass BINARY | sass_summary.py [--full]
Prints one line per kernel: name, then each LDG/STG/LDS/STS/LD/ST/ATOM/RED/LDC instruction (opcode with all
modifiers, '@P' marking a predicated one). With --full the whole instruction text is printed instead.
"""
import re
import sys

MEM = re.compile(r"^(LDG|STG|LDS|STS|LDSM|LD|ST|ATOM|ATOMS|ATOMG|RED|REDG|LDC|ULDC)(\.|$)")


def main():
    full = "--full" in sys.argv
    func = None
    ops = []
    out = []

    def flush():
        if func is not None:
            out.append("%s: %s" % (func, " | ".join(ops) if ops else "(none)"))

    for line in sys.stdin:
        m = re.search(r"Function\s*:\s*(\S+)", line)
        if m:
            flush()
            func, ops = m.group(1), []
            continue
        m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
        if not m or func is None:
            continue
        text = m.group(1).strip()
        pred = ""
        if text.startswith("@"):
            pred, text = text.split(None, 1)
        opcode = text.split()[0]
        if MEM.match(opcode) and not opcode.startswith("ULDC"):
            if opcode == "LDC" and "c[0x0]" in text:
                continue  # parameter / driver constant bank reads
            ops.append((pred + " " if pred else "") + (text if full else opcode))
    flush()
    print("\n".join(out))


if __name__ == "__main__":
    main()
