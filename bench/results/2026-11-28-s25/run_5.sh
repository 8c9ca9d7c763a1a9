#!/bin/bash
# Call 5 (twenty-fifth session): the final ranking (RMSNorm+SwiGLU's odd
# 16-bit rows: one-CTA stage 4609-8192, its pairs twin 8193-12288, pairs
# over 2 CTAs 22529-40960).  Lane A: the GPU suites that select and launch
# (ops_gpu, graph_gpu, api, jit, concurrency), RMSNorm+SwiGLU's every
# variant, then the odd-row sweep side by side (every row op).  Lane B
# (same GPU, after lane A's suites): the Python GPU tests.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu" gpu_suite t_variants.log 60 variants_gpu
for s in ops_gpu graph_gpu api jit concurrency; do gpu_suite t_$s.log 260 $s; done
el "python"
KP_REQUIRE_GPU=1 timeout $(left 330) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1
echo "python rc=$? $(tail -1 $R/python_gpu.log)"
el "odd sweep"
timeout $(left 560) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
lanes_finish
