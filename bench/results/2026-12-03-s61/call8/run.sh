#!/bin/bash
# s61 call 8: the split-KV decode on 32-key tiles (w2x32 s2 / s3, w4x32 s2;
# a probe, rank 200): float64 over them (attention_gpu's every-variant
# case), then pinned at d128 batch 8 / 1 beside SDPA, each in turns with it.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "f64 x32 sk"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention \
  KP_TEST_ONLY="x32_s2_sk|x32_s3_sk" timeout $(left 150) build/tests/check_kernpack > $R/f64.log 2>&1
echo "f64 rc=$?"; grep -E "Checks|:[EF]:|cases|left out" $R/f64.log | head -8 | cut -c1-200
for k in 1 2; do
  el "decode pins $k"
  timeout $(left $((150 + 150 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 8,1 \
    --decode-dims 128 --reps 30 --variants "bf16_d128_dec_w(4x16_s2|2x32_s2|2x32_s3|4x32_s2)_sk" \
    --json $R/pins_$k.json > $R/pins_$k.log 2>&1
  echo "pins $k rc=$?"; grep -E "^bfloat16|dec_w|best at" $R/pins_$k.log | cut -c1-170
done
lanes_finish
