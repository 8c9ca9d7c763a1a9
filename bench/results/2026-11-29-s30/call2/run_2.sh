#!/bin/bash
# Thirtieth session, call 2: RMSNorm+SwiGLU's persistent rows (a warp or a
# block a row, the next row's loads under this one's write pass; new, for the
# tuner) against every other variant at odd rows of 1001-11007 outputs;
# float64, memcheck and racecheck over them.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64 new variants (f32 has none: its case fails by design)"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=rows_ \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"; grep -E "Checks|:[EF]:|cases" $R/var.log | head -8 | cut -c1-250
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 131072 1023
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 32768 3001
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 16384 5001
rmsnorm_swiglu 8192 11007
S
el "tune"
timeout $(left 260) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/t.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
for s in 131072x1001 131072x1023 65536x2001 32768x3001 16384x4097 16384x5001 8192x11007; do echo "== $s"; grep " $s " $R/t.tune | head -6 | awk '{print $5, $6}'; done
el "sanitizers"
san memcheck variants_gpu rows_ mem.log 420
san racecheck variants_gpu rows_ race.log 560
lanes_finish
