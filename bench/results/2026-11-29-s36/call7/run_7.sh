#!/bin/bash
# Thirty-sixth session, call 7 (a trial): RoPE one token a block of 512
# threads, a row each (`_b512`), against the ranked 256 threads (8 of 40
# heads' rows a second one a thread): float64 over every RoPE variant (the
# kernel's thread count became a template parameter), memcheck and racecheck
# over `_b512`, RoPE's own chain and the whole chain with it pinned.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="rope_" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu _b512 mem.log 90
san racecheck variants_gpu _b512 race.log 120
pdl rope "" rope 1,16,128,512 135
pdl rope_b512 rope_bf16_t8_v8_u1_r1_pl_neox_b512 rope 1,16,128,512 150
pdl chain "" rmsnorm,swiglu,rope 16,128 165
pdl chain_b512 rope_bf16_t8_v8_u1_r1_pl_neox_b512 rmsnorm,swiglu,rope 16,128 180
pdl chain2 "" rmsnorm,swiglu,rope 16,128 195
pdl chain2_b512 rope_bf16_t8_v8_u1_r1_pl_neox_b512 rmsnorm,swiglu,rope 16,128 210
lanes_finish
