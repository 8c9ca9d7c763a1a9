#!/bin/bash
# Next session's first call (written by the thirty-sixth session, NOTES item
# 70): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  FIRST apply bench/results/2026-11-29-s36/prologue2.patch (RoPE's
# PDL wait after its first row's address and indices, the inverse frequency
# after the loads issue: the address-only form of item 70's prologue.patch),
# make, copy this script to build/carry/, carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make, and check it
# with `xz -t`), run it as it is.  Keep the patch only if the chain without
# PDL is no slower than item 70's (16 tokens 1.72-1.73 us a call, 128
# 2.70-2.72; RoPE's own chain 1.92-1.93 / 2.71-2.77) and with PDL faster.
# - float64, memcheck and racecheck over every RoPE variant (the patch
#   changes all of them), the ops and graph suites;
# - the PDL chain whole (three times) and RoPE's own chain;
# - RoPE at 16K tokens side by side (the four-tokens-a-block variants take
#   the patch too: their bandwidth must not move).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rope_" \
  timeout $(left 25) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
pdl chain "" rmsnorm,swiglu,rope 1,16,128 40
pdl rope "" rope 1,16,128,512 55
pdl chain2 "" rmsnorm,swiglu,rope 1,16,128 70
pdl rope2 "" rope 1,16,128,512 85
pdl chain3 "" rmsnorm,swiglu,rope 1,16,128 100
el "side rope"
timeout $(left 160) python3 bench/side_by_side.py --ops rope --reps 100 --json $R/side_rope.json 2>&1 |
  grep -vE "$F" > $R/side_rope.log; echo "side rc=$?"; grep -E "^rope " $R/side_rope.log | cut -c1-150
gpu_suite graph.log 205 graph_gpu
gpu_suite ops.log 245 ops_gpu
san memcheck variants_gpu rope_ mem.log 290
san racecheck variants_gpu rope_ race.log 335
lanes_finish
