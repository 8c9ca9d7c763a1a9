#!/bin/bash
# fifty-second session, call 5: 6a73468 + three tuner-only twins of the
# ranked `_pers` (bf16: the write loop a vector a step, one block barrier a
# sum, both) -- float64 over every `_pers`, memcheck / racecheck (with an
# f32 variant for the f32 case) and synccheck (16-bit only: the f32 case
# reports "no variant ran"); kp tune at whole 2048 x 50256 and 512 x 200000
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pers_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-250
export KP_TEST_TIMES=1
el "memcheck"; san memcheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_pers_" memcheck.log 90
el "racecheck"; san racecheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_pers_" racecheck.log 170
el "synccheck"; san synccheck variants_gpu "_pers_" synccheck.log 250
grep -E ":[EF]:" $R/synccheck.log | head -4 | cut -c1-200
el "tune"
timeout $(left 400) stdbuf -oL build/bin/kp tune -o $R/t5.tune --dtypes bf16 --shapes build/carry/t5.txt \
  --reps 10 --time-budget 130 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t5.tune | sort -k6 -g | head -8 | awk '{print $5, $6}'; done < build/carry/t5.txt
lanes_finish
