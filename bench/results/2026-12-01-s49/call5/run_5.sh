#!/bin/bash
# forty-ninth session, call 5: two one-CTA staged softmax shapes for the
# tuner (512 x 2 in 48 KiB, 256 x 2 in 32 KiB: rows to 24576 / 16384) against
# call 4's picks (the one-CTA loop) at 13823-24576 columns; float64 over
# every softmax variant first
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="softmax_" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases" $R/var.log | head -8 | cut -c1-250
el "tune"
timeout $(left 230) stdbuf -oL build/bin/kp tune -o $R/t5.tune --dtypes bf16 --shapes build/carry/t5.txt \
  --reps 10 --time-budget 170 > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default .* best" $R/tune.log | cut -c1-200
for s in 4096x18943 4096x18944 4096x22001 4096x16384 8192x13823 8192x14336 4096x24576; do
  echo "== $s"; grep "^softmax bf16 $s " $R/t5.tune | sort -k6 -n | head -5 | awk '{printf "   %-42s %s\n", $5, $6}'
done
lanes_finish
