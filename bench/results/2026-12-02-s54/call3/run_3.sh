#!/bin/bash
# fifty-fourth session, call 3: RMSNorm+SwiGLU's persistent clusters at any
# residue (rmsnorm_swiglu_apers, tuner-only; kp_prow / kp_pin in
# kp_device.cuh, which RMSNorm's `_pers` now uses too): float64 over every
# `_pers` / `_apers`, kp tune at the odd sweep's long rows against the picks,
# memcheck and racecheck over two of them
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_pers_|_apers_" \
  timeout $(left 100) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 330) stdbuf -oL build/bin/kp tune -o $R/t3.tune --dtypes bf16 --shapes build/carry/t3.txt \
  --reps 20 --time-budget 200 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t3.tune | sort -k6 -g | head -4 | awk '{print $5, $6}'; grep "^$f bf16 ${r}x$c .*pers_" $R/t3.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; done < build/carry/t3.txt
S="rmsnorm_swiglu_bf16_apers_t512_b3_w1600_c16|rmsnorm_swiglu_f16_apers_t512_b4_w1200_c2|rmsnorm_f32_pers_t512_b3_w2400_c8"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 430
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 580
lanes_finish
