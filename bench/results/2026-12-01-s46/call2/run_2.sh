#!/bin/bash
# forty-sixth session, call 2: RMSNorm+SwiGLU's `_tma` variants (long odd
# rows realigned by 1-d TMA boxes): every variant of the family against
# float64 (the signature gained two maps), the ops and graph suites,
# memcheck over `_tma_`, and kp tune over the odd sweep's shapes (bf16)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "variants rmsnorm_swiglu"
KP_TEST_ONLY=rmsnorm_swiglu gpu_suite var_rsw.log 200 variants_gpu
grep -E "_tma_" $R/var_rsw.log | head -4 | cut -c1-200
gpu_suite ops.log 280 ops_gpu
gpu_suite graph.log 330 graph_gpu
el "tune"
CUDA_VISIBLE_DEVICES=0 timeout $(left 500) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --reps 5 --shapes build/carry/rsw_shapes.txt -q -o $R/t.tune > $R/tune.log 2>&1; echo "tune rc=$?"
grep -iE "reject|error|differ" $R/tune.log | head -5 | cut -c1-200
python3 build/carry/tune_sum.py $R/t.tune
el "memcheck _tma_"
san memcheck variants_gpu _tma_ mem_tma.log 580
lanes_finish
