#!/bin/bash
# GPU call for the thirteenth session (written 2026-11-26, twelfth session,
# not yet run): branch `gemm-256x128` -- GEMM 256x128 tiles, each consumer
# warpgroup 128 rows as two m64n128 wgmmas a k-step (cuBLAS's shape at
# 4096^3, whose nvjet kernel also multicasts A over a 1x2 cluster; not
# here yet) -- built from that branch: gemm_gpu narrowed to it (29 cases a
# dtype, every epilogue, both output types), memcheck / racecheck over it,
# then 4096^3 and the m = 4096 shapes with it and 128x256 pinned beside
# cuBLAS. ~250 s on two H100s.  (Branch `fa3-d64-bc64` -- 64-key tiles for
# d64 `_pc` / `_p` -- can ride along: attention_gpu narrowed to
# 'wg_128x64_s5', then attn_bench --variants 'd64_wg_128x(64|128)_s[35]_p' at
# 1K causal and unmasked beside cuDNN.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemm_gpu (256x128)"; KP_TEST_ONLY='wg_256x128' gpu_suite gemm.log 120 gemm_gpu
  el "lane0: pinned"
  timeout $(left 300) python3 bench/gemm_bench.py --variants --only 'wg_(256x128|128x256)_s' \
    --shapes '4096,4096,4096;4096,11008,4096;4096,4096,11008;4096,14336,4096;8192,8192,8192' \
    --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm_pinned.log; echo "gemm rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck gemm_gpu 'wg_256x128' san_memcheck.log 150
  san racecheck gemm_gpu 'bf16_wg_256x128' san_racecheck.log 290
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Checks|:[EF]:" $R/gemm.log | head
grep -E "^(bfloat16|float16)|wg_" $R/gemm_pinned.log | head -40
lanes_finish
