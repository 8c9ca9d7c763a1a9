#!/bin/bash
# Thirty-sixth session, call 6: SwiGLU's PDL gain vanishing at 32-64 rows
# (item 70) -- the next launch triggered after the grid's wait (`_lt`, the
# column-chunk shapes of 128 and 256 threads) against before it (the ranked
# ones), in SwiGLU's own chain and in the whole PDL chain.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_lt" \
  timeout $(left 30) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
pb() { # pb NAME PIN OPS TOKENS DEADLINE
  el "$1"
  KP_VARIANT=$2 timeout $(left $5) python3 bench/pdl_bench.py --no-compile --ops $3 --tokens $4 \
    --json $R/$1.json > $R/$1.log 2>&1
  echo "$1 ($2) rc=$? $(grep -E '^ *[0-9]+ \|' $R/$1.log | awk '{printf "T%s %s/%s %s | ", $1, $3, $5, $7}')"
}
pb swi "" swiglu 16,32,64,128 45
pb swi_c128lt swiglu_bf16_c128_v8_u1_lt swiglu 16,32,64,128 60
pb swi_c256lt swiglu_bf16_c256_v8_u1_lt swiglu 16,32,64,128 75
pb chain "" rmsnorm,swiglu,rope 16,128 90
pb chain_c128lt swiglu_bf16_c128_v8_u1_lt rmsnorm,swiglu,rope 16,128 105
pb chain_c256lt swiglu_bf16_c256_v8_u1_lt rmsnorm,swiglu,rope 16,128 120
pb chain2 "" rmsnorm,swiglu,rope 16,128 135
lanes_finish
