#!/bin/bash
# Thirty-fourth session, call 7 (the last device seconds): RMSNorm+SwiGLU's
# staged pairs variants with fewer threads a CTA (for the tuner) -- kp tune
# at the odd sweep's long rows, then float64 over them.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 4096 32001
rmsnorm_swiglu 2048 50257
rmsnorm_swiglu 1024 128257
rmsnorm_swiglu 512 151937
rmsnorm_swiglu 512 199999
S
el "tune"
timeout $(left 175) build/bin/kp tune --device 0 --families rmsnorm_swiglu --reps 5 \
  --dtypes bf16 --time-budget 160 --shapes $R/shapes.txt -q -o $R/c7.tune > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do s=${r}x$c
  grep "^$f bf16 $s " $R/c7.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/shapes.txt
el "float64 new"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="$(cat build/carry/only7.txt)" \
  timeout $(left 270) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -5 | cut -c1-250
lanes_finish
