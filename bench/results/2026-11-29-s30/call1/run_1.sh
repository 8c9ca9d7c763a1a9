#!/bin/bash
# Thirtieth session, call 1: the warp-a-row RMSNorm+SwiGLU loops (new, for
# the tuner) against every other variant at odd rows of 1001-16001 outputs;
# float64 over them; the twenty-ninth's re-ranked long odd rows again; the
# decode rows (issue 13).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64 new variants (f32 has none: its case fails by design)"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=loop_warp_r \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"; grep -E "Checks|:[EF]:|cases" $R/var.log | head -8 | cut -c1-250
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 65536 2001
rmsnorm_swiglu 32768 3001
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 16384 6001
rmsnorm_swiglu 8192 11007
rmsnorm_swiglu 4096 16001
rmsnorm_swiglu 131072 1000
add_rmsnorm 1024 128257
rmsnorm_swiglu 1024 128257
rmsnorm_swiglu 512 151937
rmsnorm_swiglu 512 199999
rmsnorm_swiglu 2048 50257
S
el "tune"
timeout $(left 330) build/bin/kp tune --device 0 --families add_rmsnorm,rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/t.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
el "decode"
timeout $(left 520) python3 bench/attn_bench.py --decode-only --decode-dims 128 --decode-batches 1,8 \
  --reps 30 --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-190
lanes_finish
