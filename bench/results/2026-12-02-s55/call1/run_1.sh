#!/bin/bash
# fifty-fifth session, call 1: softmax `_pers` (new, tuner-only: RMSNorm's
# persistent any-residue layout with (max, sum) pairs exchanged) and
# add+RMSNorm `_pers` (add_pers.patch) -- float64 over every softmax /
# add+RMSNorm variant and every `_pers`; kp tune at the long odd rows;
# memcheck and racecheck over a softmax and an add+RMSNorm `_pers`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="softmax_|add_rmsnorm_|_pers_" \
  timeout $(left 170) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-300
el "tune"
timeout $(left 420) stdbuf -oL build/bin/kp tune -o $R/p.tune --dtypes bf16 --shapes build/carry/pers.txt \
  --reps 20 --time-budget 230 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/p.tune | sort -k6 -g | head -4 | awk '{print $5, $6}'; grep "^$f bf16 ${r}x$c .*_pers_" $R/p.tune | sort -k6 -g | head -3 | awk '{print $5, $6}'; done < build/carry/pers.txt
S="softmax_bf16_pers_t512_b4_w3200_c8|add_rmsnorm_bf16_pers_t512_b3_w1600_c16|rmsnorm_f32_block_t128_v4_n1"
el "memcheck"; san memcheck variants_gpu "$S" memcheck.log 500
el "racecheck"; san racecheck variants_gpu "$S" racecheck.log 585
lanes_finish
