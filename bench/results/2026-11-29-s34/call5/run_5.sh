#!/bin/bash
# Thirty-fourth session, call 5: staged row variants with fewer threads a
# CTA and slices sized to the row (for the tuner: rmsnorm, softmax,
# add_rmsnorm, 16-bit) -- kp tune over the odd sweep's lengths, every
# variant's time; then float64 over the new variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
cat > $R/shapes.txt <<'S'
rmsnorm 16384 4097
rmsnorm 8192 11007
rmsnorm 4096 32001
rmsnorm 2048 50257
rmsnorm 1024 128257
rmsnorm 512 151937
rmsnorm 512 199999
softmax 16384 4097
softmax 2048 50257
softmax 512 151937
softmax 512 199999
add_rmsnorm 16384 4097
add_rmsnorm 8192 11007
add_rmsnorm 2048 50257
add_rmsnorm 512 151937
add_rmsnorm 512 199999
S
el "tune"
timeout $(left 320) build/bin/kp tune --device 0 --families rmsnorm,softmax,add_rmsnorm --reps 5 \
  --dtypes bf16 --time-budget 280 --shapes $R/shapes.txt -q -o $R/c5.tune > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do s=${r}x$c
  grep "^$f bf16 $s " $R/c5.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s %s | ", $1, $3, $5, $6}'; echo
done < $R/shapes.txt
el "float64 new"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="$(cat build/carry/only.txt)" \
  timeout $(left 450) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -5 | cut -c1-250
lanes_finish
