#!/bin/bash
# fifty-third session, call 6: RMSNorm's 16-bit blocks capped at 32
# registers (`_o8`: 256 threads, 8 blocks an SM; `_o16`: 128, 16; tuner-only
# twins) -- bf16's 128 / 256 x 2 take 40 registers (6 blocks of 256 an SM)
# where f16's take 32: float64 and memcheck over them, kp tune at aligned
# bf16 rows of 2048-4096 (f16 at two for reference)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_o8|_o16|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -12 | cut -c1-250
el "memcheck"; san memcheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|_o8|_o16" memcheck.log 100
el "tune"
timeout $(left 400) stdbuf -oL build/bin/kp tune -o $R/t6.tune --dtypes bf16 --shapes build/carry/t6.txt \
  --reps 10 --time-budget 240 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t6.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; done < build/carry/t6.txt
timeout $(left 470) stdbuf -oL build/bin/kp tune -o $R/t6f.tune --dtypes f16 --shapes build/carry/t6f.txt \
  --reps 10 --time-budget 60 > $R/tunef.log 2>&1
echo "tune f16 rc=$?"
while read f r c; do echo "== f16 $f $r x $c"; grep "^$f f16 ${r}x$c " $R/t6f.tune | sort -k6 -g | head -4 | awk '{print $5, $6}'; done < build/carry/t6f.txt
lanes_finish
