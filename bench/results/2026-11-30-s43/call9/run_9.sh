#!/bin/bash
# Call 9 (forty-third session): the state 60 x 8192^3 leave the H200 in
# (call 8: the m = 128 GEMMs 11-24% slower for ~30 ms) -- probed (SM clock by
# a timed spin, an 8 MB L2 read, a 256 MB HBM read) and every applicable tile
# pinned in it, the load repeated before each round.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "f16 128 x 4096^2, tiles in the loaded state"
V=gemm_f16_wg_64x64_s13_pl_nk,gemm_f16_wg_128x64_s8_e64_pl_nk,gemm_f16_wg_128x64_s8_k2_pl_nk,gemm_f16_wg_128x128_s6_e128_pl_nk,gemm_f16_wg_128x88_s6_e88_pl_nk
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemm_order.py --dtype f16 --places 1 --big-reps 60 --every-round \
  --after-rounds 6 --reps 5 --variants $V 2>&1 | grep -vE "$F" > $R/tiles_4096.log
sed -n '/-- before/,$p' $R/tiles_4096.log | cut -c1-250
el "bf16 128 x 11008 x 4096"
V=gemm_bf16_wg_128x88_s6_e88_pl_nk,gemm_bf16_wg_128x112_s6_e112_pl_nk,gemm_bf16_wg_128x64_s8_e64_pl_nk
CUDA_VISIBLE_DEVICES=0 timeout $(left 380) python3 bench/gemm_order.py --dtype bf16 --shape 128,11008,4096 --places 1 --big-reps 60 --every-round \
  --after-rounds 6 --reps 5 --variants $V 2>&1 | grep -vE "$F" > $R/tiles_11008.log
sed -n '/-- before/,$p' $R/tiles_11008.log | cut -c1-250
el "the state over time (no repeat)"
CUDA_VISIBLE_DEVICES=0 timeout $(left 500) python3 bench/gemm_order.py --dtype f16 --places 1 --big-reps 60 \
  --after-rounds 24 --reps 5 --variants gemm_f16_wg_64x64_s13_pl_nk 2>&1 | grep -vE "$F" > $R/state.log
sed -n '/-- before/,$p' $R/state.log | cut -c1-250
lanes_finish
