#!/bin/bash
# Thirty-fifth session, call 3: the `_wc` rankings (RMSNorm's odd 16-bit
# rows from 8193 on, add+RMSNorm's at 8193-11264, 40961-51200, 65537-98304
# and past 131072; RMSNorm's aligned rows past 140000) -- ops_gpu,
# graph_gpu, the odd sweep side by side, kp tune at lengths calls 1-2 did
# not measure (and aligned 151936 / 200000: the `any` pick's new form), and
# memcheck / racecheck over the ranked `_wc` variants (bf16).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite ops.log 50 ops_gpu
gpu_suite graph.log 90 graph_gpu
el "side odd"
timeout $(left 260) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm \
  --shapes-file bench/shapes_odd.txt --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log
echo "side_odd rc=$?"
grep -E "^(rmsnorm|add_rms)" $R/side_odd.log | cut -c1-150
cat > $R/shapes.txt <<'S'
rmsnorm 4096 13001
rmsnorm 4096 20001
rmsnorm 4096 24575
rmsnorm 512 151936
rmsnorm 512 200000
S
el "tune"
timeout $(left 340) build/bin/kp tune --device 0 --families rmsnorm --reps 5 --dtypes bf16 \
  --time-budget 70 --shapes $R/shapes.txt -q -o $R/c3.tune > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do s=${r}x$c
  grep "^$f bf16 $s " $R/c3.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/shapes.txt
ONLY='bf16_stage_t256_v8_u2_s24_wc|bf16_stage_t512_v8_u2_s64_wc|bf16_stage_t256_v8_u2_s32_c2_wc|bf16_stage_t256_v8_u2_s25_c4_wc|bf16_stage_t512_v8_u2_s64_c2_wc|bf16_stage_t256_v8_u2_s32_c8_wc|bf16_stage_t256_v8_u2_s38_c8_wc|bf16_stage_t512_v8_u2_s50_c8_wc|bf16_stage_t128_v8_u2_s22_wc|bf16_stage_t512_v8_u2_s50_c4_wc'
san memcheck variants_gpu "$ONLY" mem.log 430
san racecheck variants_gpu "$ONLY" race.log 550
lanes_finish
