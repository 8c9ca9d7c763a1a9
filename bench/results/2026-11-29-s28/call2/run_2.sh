#!/bin/bash
# Call 2 (twenty-eighth session): synccheck's view of st.async (a minimal
# kernel), the decode's early loads (_e) and push merge (_m, _em): float64
# checks, A/B at batch 1 and 8 beside SDPA, sanitizers.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "stasync"
chmod +x build/carry/sc/stasync
build/carry/sc/stasync > $R/sc_plain.log 2>&1; echo "plain rc=$?"; cat $R/sc_plain.log
compute-sanitizer --tool synccheck build/carry/sc/stasync > $R/sc_sync.log 2>&1; echo "synccheck rc=$?"; tail -4 $R/sc_sync.log
compute-sanitizer --tool racecheck build/carry/sc/stasync > $R/sc_race.log 2>&1; echo "racecheck rc=$?"; tail -3 $R/sc_race.log
el "tests"
ONLY="_c16_e|_c16_m|_sk_e|d128_dec_w4x16_s3_c16|d64_dec_w4x16_s3_c16"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=attention_gpu CK_RUN_CASE=attention KP_TEST_ONLY="$ONLY" \
  timeout $(left 200) build/tests/check_kernpack > $R/t_attn.log 2>&1
echo "attn rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_attn.log)"; grep -E ':[EF]:|cases$' $R/t_attn.log | cut -c1-200 | head -40
el "bench"
timeout $(left 420) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --reps 30 \
  --variants 'd128_dec_w4x16_s(3_c16|2_sk)' --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
echo "bench rc=$?"; grep -vE "^\s*$" $R/dec.log | tail -40 | cut -c1-180
ONLY2="bf16_d128_dec_w4x16_s3_c16_em|bf16_d128_dec_w4x16_s2_sk_e|bf16_d64_dec_w4x16_s3_c16_m"
san racecheck attention_gpu "$ONLY2" san_race.log 500
san synccheck attention_gpu "$ONLY2" san_sync.log 540
san memcheck attention_gpu "$ONLY2" san_mem.log 575
lanes_finish
