#!/bin/bash
# Call 10 (twenty-eighth session): the decode's tile addresses from the
# tile's first row (FL: contiguous K / V, or pages a whole number of tiles)
# against per-row addresses by shuffle (`_x`): every decode variant against
# float64 (pages of 16, 7, 48), then A/B pinned at batch 1 and 8, paged too.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention KP_TEST_ONLY="_dec_" \
  timeout $(left 110) build/tests/check_kernpack > $R/t_attn_dec.log 2>&1
echo "attn dec rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_attn_dec.log)"; grep -E ':[EF]:' $R/t_attn_dec.log | cut -c1-250 | head
el "bench"
timeout $(left 300) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 \
  --variants 'd128_dec_w4x16_s(3_c16|2_sk)' --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
echo "bench rc=$?"; grep -E "^bfloat16|decode:|  attention_|best at" $R/dec.log | cut -c1-190
lanes_finish
