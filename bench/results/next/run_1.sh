#!/bin/bash
# GPU call for the fourteenth session (written 2026-11-26, thirteenth
# session, not yet run): GEMM m = 128 (n = k = 4096) runs 0.96-0.97x cuBLAS
# in a fresh process, also right after 8192^3 and 4096^3 (thirteenth
# session, call 7), but 0.83-0.91x inside the full table.  One process per
# GPU times the table's shapes in order with m = 128 first, after the large
# shapes (where the table has it), and last; a second process times m = 128
# with the large shapes' tensors still cached by torch's allocator
# (PYTORCH_NO_CUDA_MEMORY_CACHING=1 beside it: every tensor freed back to
# the driver).  If m = 128 slows inside one process only, ncu on its two
# placements next (lts / TLB counters).  ~120 s on two H100s.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
S='128,4096,4096;4096,4096,4096;8192,8192,8192;4096,11008,4096;4096,4096,11008;4096,14336,4096'
S="$S;128,4096,4096;128,11008,4096;16,4096,4096;1,4096,4096;128,4096,4096"
one() { CUDA_VISIBLE_DEVICES=$1 timeout 200 env $3 python3 bench/gemm_bench.py --dtypes $2 \
  --shapes "$S" 2>&1 | grep -vE "$F" | grep -E "^(bfloat16|float16) " | sed "s/^/[$4] /"; }
lane() { one $1 $2 "" cached; one $1 $2 PYTORCH_NO_CUDA_MEMORY_CACHING=1 nocache; }
lane 0 bf16 > $R/lane0.log 2>&1 &
lane 1 f16 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log | cut -c1-120
lanes_finish
