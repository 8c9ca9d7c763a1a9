#!/bin/bash
# Twenty-sixth session, call 2: GEMM at m <= 128 -- the new A-sharing
# clusters (`_a2`, `_a4`) and the 88 / 112-column tiles: every new variant
# against float64 (gemm_gpu's every-variant case), then every m <= 128 tile
# pinned beside cuBLAS at the issue's four m = 128 shapes, then memcheck,
# racecheck and synccheck over the A-sharing clusters.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
NEW="_a2_|_a4_|128x88|128x112"
el "gemm_gpu (new)"
KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=gemm_gpu CK_RUN_CASE=gemm KP_TEST_ONLY="$NEW" \
  timeout $(left 120) build/tests/check_kernpack > $R/t_gemm_new.log 2>&1
echo "rc=$? $(grep -E '^[0-9]+%: Checks' $R/t_gemm_new.log)"; grep -E ':[EF]:|cases' $R/t_gemm_new.log | head -12 | cut -c1-250
el "pinned m=128"
timeout $(left 380) python3 bench/gemm_bench.py --reps 40 --variants \
  --only '64x64_s13|128x128_s6|128x88|128x112|128x64_s8_k2|64x256|128x176|128x168' \
  --shapes "128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096" \
  --json $R/pinned128.json > $R/pinned128.log 2>&1
echo "bench rc=$?"; grep -vE "^check" $R/pinned128.log | cut -c1-150
el "sanitizers"
san memcheck gemm_gpu "_a2_|_a4_" san_memcheck.log 460
san racecheck gemm_gpu "_a2_|_a4_" san_racecheck.log 530
san synccheck gemm_gpu "_a2_|_a4_" san_synccheck.log 590
lanes_finish
