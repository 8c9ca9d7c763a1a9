#!/bin/bash
# GPU call 5 of the eleventh session (2026-11-26): how much GEMM m = 128, n = k
# = 4096 moves between runs (64x64 ran 20.4 / 20.9 / 23.8 us in calls 2-4):
# the pick and 128x64 k2 pinned beside cuBLAS, three times on each GPU.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  for i in 1 2 3; do
    timeout $(left 200) python3 bench/gemm_bench.py --dtypes bf16 --reps 50 --variants \
      --only 'wg_(64x64_s13|128x64_s8_k2)_nk' --shapes '128,4096,4096;128,4096,11008' \
      2>&1 | grep -vE "$F" | grep -E "^bfloat16|wg_|best" > $R/m128_g$1_$i.log
  done
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
for f in $R/m128_g*.log; do echo "== $f"; cat $f; done
lanes_finish
