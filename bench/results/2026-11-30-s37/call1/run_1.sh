#!/bin/bash
# Next session's first call (written by the thirty-sixth session, NOTES item
# 70): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  FIRST `git apply bench/results/2026-11-29-s36/prologue_both.patch`
# -- prologue2.patch (RoPE's PDL wait after its first row's address and
# indices, the inverse frequency after the loads issue: the address-only form
# of item 70's prologue.patch) and glu_prologue.patch (SwiGLU's column chunks:
# the wait after their row / chunk divisions, kp_grid_dep in kp_device.cuh),
# one test change for both -- make (every pack: kp_device.cuh changes), the
# CPU tests, copy this script to build/carry/, carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make, and check it
# with `xz -t`), run it as it is.  Keep each part only if its op's own chain
# without PDL is no slower than item 70's (RoPE 1.92-1.93 / 2.71-2.77 us a
# call at 16 / 128 tokens, SwiGLU 1.60-1.61 / 2.98-2.99) and with PDL faster
# (RoPE 1.42 / 2.25-2.28, SwiGLU 1.19-1.22 / 2.61-2.63).
# - float64 over every RoPE and SwiGLU variant (the patches change all of
#   them), memcheck and racecheck over the same, the ops and graph suites;
# - the PDL chain whole (twice) and each changed op's own chain (twice);
# - RoPE and SwiGLU at large shapes side by side (their bandwidth must not
#   move).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rope_|swiglu_" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
pdl chain "" rmsnorm,swiglu,rope 1,16,128 55
pdl rope "" rope 1,16,128,512 70
pdl swi "" swiglu 1,16,64,128 85
pdl chain2 "" rmsnorm,swiglu,rope 1,16,128 100
pdl rope2 "" rope 1,16,128,512 115
pdl swi2 "" swiglu 1,16,64,128 130
el "side"
timeout $(left 200) python3 bench/side_by_side.py --ops rope,swiglu --reps 100 --json $R/side.json 2>&1 |
  grep -vE "$F" > $R/side.log; echo "side rc=$?"; grep -E "^(rope|swiglu) " $R/side.log | cut -c1-150
gpu_suite graph.log 245 graph_gpu
gpu_suite ops.log 285 ops_gpu
san memcheck variants_gpu "rope_|swiglu_" mem.log 345
san racecheck variants_gpu "rope_|swiglu_" race.log 405
lanes_finish
