#!/bin/bash
# Thirty-sixth session, call 8: RoPE's PDL wait after its arithmetic prologue
# (rope_grid_wait: the first rows' addresses, the inverse frequency and the
# rows' indices computed before the wait, under the previous kernel's tail;
# SASS: 12 instructions between the wait and the first load, 100 before).
# Float64 over every RoPE variant, the chain (issue 14 part 2), the graph and
# ops suites (the PDL chain's correctness among them), memcheck and
# racecheck over every RoPE variant.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rope_" \
  timeout $(left 25) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
pdl chain "" rmsnorm,swiglu,rope 1,16,128 40
pdl rope "" rope 1,16,128,512 55
pdl chain2 "" rmsnorm,swiglu,rope 1,16,128 70
gpu_suite graph.log 115 graph_gpu
gpu_suite ops.log 155 ops_gpu
san memcheck variants_gpu rope_ mem.log 200
san racecheck variants_gpu rope_ race.log 240
lanes_finish
