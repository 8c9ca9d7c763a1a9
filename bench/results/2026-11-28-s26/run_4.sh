#!/bin/bash
# Twenty-sixth session, call 4: the final code (m = 128 GEMM ranking: 128x88
# at n = 11008, 128x112 at 12288-14336; the `_a2` A-sharing clusters for the
# tuner).  gemm_gpu whole (every variant against float64, the selection's
# cases), the GPU suites that select and launch, the issue's GEMM table side
# by side, the m = 128 tiles pinned, the Python GPU tests.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_gemm_gpu.log 200 gemm_gpu
for s in ops_gpu graph_gpu api jit concurrency; do gpu_suite t_$s.log 300 $s; done
el "issue table"
timeout $(left 360) python3 bench/gemm_bench.py --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "bench rc=$?"; grep -vE "^check" $R/gemm_issue.log | cut -c1-150
el "pinned m=128"
timeout $(left 420) python3 bench/gemm_bench.py --reps 40 --variants --dtypes bf16 \
  --only 'wg_128x128_s6_e128|128x88|128x112|64x256' \
  --shapes "128,11008,4096;128,14336,4096" --json $R/pinned128.json > $R/pinned128.log 2>&1
echo "bench rc=$?"; grep -E "^bfloat16|  gemm_|best:" $R/pinned128.log | cut -c1-130
el "python"
KP_REQUIRE_GPU=1 timeout $(left 585) python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1
echo "python rc=$? $(tail -1 $R/python_gpu.log)"
lanes_finish
