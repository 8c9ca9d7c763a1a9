#!/bin/bash
# Thirty-fifth session, call 5 (experiment): RMSNorm's one-CTA stage
# variants over two rows a CTA, one after the other (`_r2`: a barrier set a
# row, the image reused) for the tuner -- float64 over every `_r2`,
# memcheck / racecheck over them (bf16: the image's reuse is where a race
# would be), kp tune, bf16, at 4097-24575.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_r2" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu 'bf16_stage_t128_v8_u2_s9_r2|bf16_stage_t128_v8_u2_s16_r2|bf16_stage_t256_v8_u2_s24_wc_r2|bf16_stage_t512_v8_u2_s64_wc_r2' mem.log 100
san racecheck variants_gpu 'bf16_stage_t128_v8_u2_s9_r2|bf16_stage_t128_v8_u2_s16_r2|bf16_stage_t256_v8_u2_s24_wc_r2|bf16_stage_t512_v8_u2_s64_wc_r2' race.log 170
cat > $R/shapes.txt <<'S'
rmsnorm 16384 4097
rmsnorm 16384 4353
rmsnorm 16384 6001
rmsnorm 8192 8193
rmsnorm 8192 11007
rmsnorm 4096 16001
rmsnorm 4096 24575
S
el "tune"
timeout $(left 290) build/bin/kp tune --device 0 --families rmsnorm --reps 5 --dtypes bf16 \
  --time-budget 100 --shapes $R/shapes.txt -q -o $R/c5.tune > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do s=${r}x$c
  grep "^$f bf16 $s " $R/c5.tune | sort -k6 -n | head -4 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/shapes.txt
lanes_finish
