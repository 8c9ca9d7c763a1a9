#!/bin/bash
# Call 8 (twenty-eighth session): the twenty-sixth session's sanitizer gaps --
# the plain 128x88 / 128x112 GEMM tiles (m <= 128 picks) and SwiGLU's ranked
# column-chunk variant -- under memcheck, racecheck and synccheck.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
S="swiglu_bf16_c128_v8_u1"
for t in memcheck racecheck synccheck; do san $t variants_gpu "$S" san_${t}_swiglu.log 90; done
G="bf16_wg_128x88_s6_e88_nk|bf16_wg_128x112_s6_e112_nk"
san memcheck gemm_gpu "$G" san_memcheck_gemm.log 170
san racecheck gemm_gpu "$G" san_racecheck_gemm.log 270
san synccheck gemm_gpu "$G" san_synccheck_gemm.log 345
grep -hE "cases|took" $R/san_*_gemm.log | head -12
lanes_finish
