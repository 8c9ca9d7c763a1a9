#!/bin/bash
# Next session's first call (written by the sixty-second, bench/NOTES.md
# 101-102): (1) the whole GPU suite on main -- the sixty-second's call 2 was
# cut at its 400 s mark inside the GEMM every-variant case after dbb1300
# (the persistent-grid cap; everything before passed, the `_sk` decode
# variants too); give it 560 s alone; (2) then, in a second call, the bars
# in rounds (the sixty-first session's call 4: decode d128 batch 8 / 1 in
# five processes, the GEMM issue table, m = 1 / 16 / 128 again).  Build
# (make packs-whole), carry the packs (bench/lanes.sh), copy this script to
# build/carry/ and run it; for (2), copy
# bench/results/2026-12-03-s61/call4/run.sh instead.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "suite"
gpu_suite tests.log 570
lanes_finish
