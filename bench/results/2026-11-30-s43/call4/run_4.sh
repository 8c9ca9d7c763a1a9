#!/bin/bash
# Call 4 (forty-third session): cuBLAS's m = 128, n = 11008 kernel shape in
# ours -- 128x96, 7 stages, alone / A shared over 2 / 4 CTAs -- pinned beside
# 128x88; the host overhead per call with a GEMM whose pick stores D by TMA
# (three maps).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
KP_TEST_ONLY="_128x96_s7_" CK_RUN_CASE=gemm gpu_suite gemm_exp.log 70 gemm_gpu
grep -hE "variants on|FAIL|fail" $R/gemm_exp.log | tail -4
el kpbench
CUDA_VISIBLE_DEVICES=0 timeout $(left 150) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 \
  --overhead-n 10000 > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
grep -A16 "^host overhead" $R/kpbench.log
el pinned
S="128,11008,4096;128,11008,4096;128,11008,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 450) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 25 --variants \
  --only "_wg_128x88_s6_e88_pl_nk|_wg_128x96_s7_(a[24]_)?e96_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
