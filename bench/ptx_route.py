#!/usr/bin/env python3
"""ptx_route.py -- first use by the PTX route, timed on this machine's CPU.

    python3 bench/ptx_route.py [--pack-target compute_100] [--arch sm_100] [--reps 3]
                               [--families softmax,rmsnorm,...]

What the driver does at a variant's first use when the device's pack is a
PTX pack (runtime/jit.c, kp_jit_ptx_ok): ptxas on the variant's PTX for the
device.  For each PTX image build/obj/<pack-target>/<variant>.bin (written
by make), runs whole-program ptxas for --arch REPS times (process start
included, so an upper bound on the driver's own compile) and prints, per
family, the median and the worst over its variants of each variant's median
CPU time (getrusage of the children: other processes on the machine inflate
wall time, not CPU time) and wall time.  Issue 14's bar: <= 100 ms median,
<= 150 ms worst.
"""
import argparse
import glob
import os
import resource
import statistics
import subprocess
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW_FAMILIES = "softmax,rmsnorm,add_rmsnorm,swiglu,geglu,rmsnorm_swiglu,rope"


def family(name):
    for f in sorted(ROW_FAMILIES.split(",") + ["gemm", "attention"], key=len, reverse=True):
        if name.startswith(f + "_"):
            return f
    return name.split("_")[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack-target", default="compute_100")
    ap.add_argument("--arch", default="sm_100")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--families", default=ROW_FAMILIES)
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    o = ap.parse_args()
    fams = set(o.families.split(","))
    per = {}
    with tempfile.TemporaryDirectory() as tmp:
        ptx = os.path.join(tmp, "v.ptx")
        for path in sorted(glob.glob(os.path.join(REPO, "build/obj", o.pack_target, "*.bin"))):
            name = os.path.basename(path)[:-4]
            if family(name) not in fams:
                continue
            with open(path, "rb") as f:
                text = f.read().rstrip(b"\0")
            with open(ptx, "wb") as f:
                f.write(text)
            cpu, wall = [], []
            for _ in range(o.reps):
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run([o.ptxas, "-arch", o.arch, ptx, "-o", os.path.join(tmp, "v.cubin")],
                               check=True)
                wall.append((time.perf_counter() - t0) * 1e3)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e3)
            per.setdefault(family(name), []).append((statistics.median(cpu), statistics.median(wall),
                                                     name))
    print(f"ptxas -arch {o.arch} on build/obj/{o.pack_target} PTX, median of {o.reps}, ms "
          f"(CPU median / worst, wall median / worst, the worst variant)")
    for fam in sorted(per):
        v = per[fam]
        c = sorted(x[0] for x in v)
        w = sorted(x[1] for x in v)
        worst = max(v)
        print(f"{fam:15s} {len(v):4d} variants  CPU {statistics.median(c):6.1f} / {c[-1]:6.1f}   "
              f"wall {statistics.median(w):6.1f} / {w[-1]:6.1f}   {worst[2]}")


if __name__ == "__main__":
    main()
