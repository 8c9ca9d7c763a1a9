#!/bin/bash
# Call 2 (forty-third session): the order effect -- A's and D's placements,
# the big GEMMs by our own kernel, then tensors allocated anew each round
# (gemm_bench's way); 128x112 with its k loop rotated (`_r8`) again at n = 14336.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
V=gemm_bf16_wg_64x64_s13_pl_nk
for mv in a d; do
  el "place $mv"
  CUDA_VISIBLE_DEVICES=0 timeout $(left 120) python3 bench/gemm_order.py --move $mv --places 12 --after-rounds 2 \
    --variants $V 2>&1 | grep -vE "$F" > $R/place_$mv.log
  cat $R/place_$mv.log
done
el "big by kp, then realloc"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_order.py --places 1 --big-kp --realloc 10 \
  --variants $V 2>&1 | grep -vE "$F" > $R/order_kp.log
cat $R/order_kp.log
el "big by cuBLAS, then realloc"
CUDA_VISIBLE_DEVICES=0 timeout $(left 280) python3 bench/gemm_order.py --places 1 --realloc 10 \
  --variants $V 2>&1 | grep -vE "$F" > $R/order_cublas.log
cat $R/order_cublas.log
el pinned
S="128,14336,4096;128,14336,4096;128,14336,4096"
CUDA_VISIBLE_DEVICES=0 timeout $(left 450) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 31 --variants \
  --only "_wg_128x112_s6_e112(_r8)?_pl_nk" \
  --shapes "$S" --json $R/pinned.json 2>&1 | grep -vE "$F" > $R/pinned.log
echo "pinned rc=$?"; grep -E "^(bfloat16|float16)|      gemm_|check\(s\)" $R/pinned.log | grep -v "does not apply" | sed 's/(vs cuBLAS.*//; s/; rel err.*//; s/gemm_b\?f16_wg_//' | cut -c1-90
lanes_finish
