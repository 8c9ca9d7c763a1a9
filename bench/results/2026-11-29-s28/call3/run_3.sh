#!/bin/bash
# Call 3 (twenty-eighth session): the decode clusters' push merge as landed
# (every cluster variant: 16, 8, 12 CTAs), float64 and sanitizers; synccheck
# on a minimal st.async kernel; the issue-13 table side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "stasync"
chmod +x build/carry/sc/stasync
build/carry/sc/stasync > $R/sc_plain.log 2>&1; echo "plain rc=$?"; cat $R/sc_plain.log
compute-sanitizer --tool synccheck build/carry/sc/stasync > $R/sc_sync.log 2>&1; echo "synccheck rc=$?"; grep -vE "^=========\s+(at|in|by)|Host Frame|^\s*$" $R/sc_sync.log | head -12
compute-sanitizer --tool racecheck build/carry/sc/stasync > $R/sc_race.log 2>&1; echo "racecheck rc=$?"; tail -2 $R/sc_race.log
el "tests"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention KP_TEST_ONLY="_dec_" \
  timeout $(left 150) build/tests/check_kernpack > $R/t_attn_dec.log 2>&1
echo "attn dec rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_attn_dec.log)"; grep -E ':[EF]:' $R/t_attn_dec.log | cut -c1-250 | head
grep -cE "_c(8|12|16): [0-9]+ cases" $R/t_attn_dec.log
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention_calls \
  timeout $(left 200) build/tests/check_kernpack > $R/t_attn_calls.log 2>&1
echo "attn calls rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_attn_calls.log)"; grep -E ':[EF]:' $R/t_attn_calls.log | cut -c1-250 | head
el "bench"
timeout $(left 420) python3 bench/attn_bench.py --decode-dims 128,64 --decode-batches 1,2,8 --reps 30 \
  --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log
echo "bench rc=$?"; grep -vE "^\s*$" $R/attn.log | tail -32 | cut -c1-200
ONLY2="bf16_d128_dec_w4x16_s3_c16|bf16_d128_dec_w4x16_s3_c12|bf16_d64_dec_w4x16_s3_c16|bf16_d128_dec_w4x16_s3_c8"
san racecheck attention_gpu "$ONLY2" san_race.log 510
san memcheck attention_gpu "$ONLY2" san_mem.log 575
lanes_finish
