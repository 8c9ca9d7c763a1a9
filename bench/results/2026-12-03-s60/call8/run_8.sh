#!/bin/bash
# Sixtieth session, call 8 (bench/results/next/run_first.sh's step (3),
# which no session had run): kp tune over RMSNorm at odd 9001-12287, where
# the scalar-tail 256 x 6 block (`_t`) ran 2.4% ahead of the pick in one
# round (fifty-eighth session; a first try of this call was cut off with the
# machine taken back) -- RMSNorm at 8192 x 11007 is 88.6% of copy
# in the odd sweep; then that block and the pick pinned in turns, bf16 two
# rounds, f16 one.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
cat > $R/shapes.txt <<'S'
rmsnorm 8192 11007
rmsnorm 16384 9001
rmsnorm 8192 12287
rmsnorm 4096 11007
rmsnorm 16384 10001
S
el "tune"; tune $R/shapes.txt 110
el "pins bf16"
pins rms rmsnorm bf16 8192x11007,16384x9001,8192x12287,16384x10001 2 190 \
  rmsnorm_bf16_stage_t256_v8_u2_s24_wc rmsnorm_bf16_block_t256_v8_n6_t
el "pins f16"
pins rms16 rmsnorm f16 8192x11007,16384x9001,8192x12287 1 225 \
  rmsnorm_f16_stage_t256_v8_u2_s24_wc rmsnorm_f16_block_t256_v8_n6_t
lanes_finish
