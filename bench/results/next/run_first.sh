#!/bin/bash
# Next session's first call (written by the fifty-seventh, whose device time ran
# out before it; bench/NOTES.md 92). Apply bench/results/next/ws_split.patch, build
# (make; the CPU tests), carry the packs with packs_old.tar.xz = main's sm_90a
# pack before the patch (bench/lanes.sh: old_pack), copy this script to
# build/carry/ and run it: RMSNorm `_ws_v8_n4_r16_p2_k` (rows past 775
# columns without the first three vectors' guards and selects: SPLIT in
# rmsnorm_ws) ranked in `_ws_v8_n4_r16_p2`'s place -- float64 over every
# `_ws`; side by side in turns with main's pack (packs_old), bf16 two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_ws_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "ab"
ab ab rmsnorm bf16 131072x1001,65536x1001,32768x1001,16384x1001,131072x777,131072x513 2 200
lanes_finish
