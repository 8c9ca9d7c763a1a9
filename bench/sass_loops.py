#!/usr/bin/env python3
"""sass_loops.py -- the loops of a cubin's SASS and what they are made of.

    build/bin/kpgen compile build/src/VARIANT.cu sm_90a /tmp/v     (NVRTC, as make builds it)
    python3 bench/sass_loops.py /tmp/v.bin [--min 100] [--ops]

Prints each backward branch (a loop: its first and last address and its
instruction count), the largest last, and with --ops the opcode counts of
every loop of at least --min instructions.  Read the library's build (kpgen
compile), not only nvcc's: the same source gave RMSNorm+SwiGLU's pipelined
pairs loop 397 instructions under NVRTC and 371 under nvcc (bench/NOTES.md
82).  Needs cuobjdump on PATH (the PyPI nvidia-cuda-cuobjdump package's).
"""
import argparse
import collections
import re
import subprocess


def sass(path):
    out = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True,
                         check=True).stdout
    ins = []
    for line in out.splitlines():
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2)))
    return ins


def opcode(text):
    w = text.split()
    op = w[1] if w[0].startswith("@") else w[0]
    return op.split(".")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cubin")
    ap.add_argument("--min", type=int, default=100, help="--ops: loops of at least this many")
    ap.add_argument("--ops", action="store_true", help="opcode counts of the large loops")
    a = ap.parse_args()
    ins = sass(a.cubin)
    loops = []
    for addr, text in ins:
        m = re.search(r"BRA\S*\s.*?0x([0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr:
            lo = int(m.group(1), 16)
            loops.append((sum(1 for b, _ in ins if lo <= b <= addr), lo, addr))
    for n, lo, hi in sorted(loops):
        print(f"loop {lo:05x}..{hi:05x}: {n} instructions")
        if a.ops and n >= a.min:
            c = collections.Counter(opcode(t) for b, t in ins if lo <= b <= hi)
            print("    " + " ".join(f"{k}:{v}" for k, v in c.most_common(16)))


if __name__ == "__main__":
    main()
