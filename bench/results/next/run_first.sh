#!/bin/bash
# Next session's first call (written by the sixty-first, bench/NOTES.md
# 97-99, whose steps all ran): issues 12 and 13's bars on the code as it
# stands, in rounds -- the sixty-first's call 4 again: (1) decode d128,
# batch 8 and 1, five processes of attn_bench --decode-only; (2) the GEMM
# issue table once, both dtypes; (3) m = 1 / 16 / 128 at the issue's (n, k)
# again.  Build (make packs-whole), carry the packs (bench/lanes.sh), copy
# this script to build/carry/ and run it.  (The lazy rescale, NOTES 100-101,
# ran level in the sixty-second session, call 1.)
cd "$(dirname "$0")/../.." || exit 1
cp bench/results/2026-12-03-s61/call4/run.sh build/carry/run_bars.sh && exec bash build/carry/run_bars.sh
