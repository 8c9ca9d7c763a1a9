#!/bin/bash
# s61 call 5: GEMM at m = 128 on split pairs whose tiles fill the SMs
# (128x168 / 176 / 224 over 2-CTA clusters, K halved a CTA; a probe, rank
# 700): float64 over every one, then pinned beside the picks (128x88 at n =
# 11008, 128x112 at 14336) and cuBLAS, both dtypes, two passes; then the
# odd sweep owed by next/run_first.sh, if time is left.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "f64 gemm split pairs"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm \
  KP_TEST_ONLY="128x168_s4_k2|128x176_s4_k2|128x224_s4_k2" timeout $(left 150) \
  build/tests/check_kernpack > $R/gemm_f64.log 2>&1
echo "gemm f64 rc=$?"; grep -E "Checks|:[EF]:|cases|variants left" $R/gemm_f64.log | head -8 | cut -c1-200
el "gemm pins"
SH="128,11008,4096;128,14336,4096;128,11008,4096;128,14336,4096"
timeout $(left 400) python3 bench/gemm_bench.py --reps 20 --shapes "$SH" --variants \
  --only "wg_128x(88_s6|112_s6|168_s4_k2|176_s4_k2|224_s4_k2)_pl_nk" --json $R/pins.json > $R/pins.log 2>&1
echo "pins rc=$?"; grep -E "^(bfloat16|float16)|wg_128x|best:|failed" $R/pins.log | cut -c1-120
el "odd sweep"
grep -E "^(softmax|rmsnorm|add_rmsnorm|rmsnorm_swiglu) " bench/shapes_odd.txt > $R/odd.txt
timeout $(left 590) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes-file $R/odd.txt --no-compile --reps 20 --warmup 4 --json $R/odd.json \
  > $R/odd.log 2>&1; echo "odd rc=$?"
python3 -c "
import json; d=json.load(open('$R/odd.json'))
for r in d['results']: print(r['op'], r['shape'], '%.1f'%r['pct_copy_ours'], '%.2f'%r['ratio_ours_best_peer'])" 2>&1 | tail -50
lanes_finish
