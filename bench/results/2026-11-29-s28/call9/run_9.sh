#!/bin/bash
# Call 9 (twenty-eighth session): memcheck over every GLU column-chunk
# variant (SwiGLU and GeGLU, every dtype: no shared memory, so memcheck is
# the tool that matters), and the f16 128x88 / 128x112 GEMM tiles under the
# three tools (call 8 ran bf16).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
san memcheck variants_gpu "_c64_v|_c128_v|_c256_v" san_memcheck_chunks.log 200
grep -cE "glu_(f16|bf16|f32)_c(64|128|256)_v" $R/san_memcheck_chunks.log
G="f16_wg_128x88_s6_e88_nk|f16_wg_128x112_s6_e112_nk"
san memcheck gemm_gpu "$G" san_memcheck_gemm.log 250
san racecheck gemm_gpu "$G" san_racecheck_gemm.log 300
san synccheck gemm_gpu "$G" san_synccheck_gemm.log 340
grep -hE "_nk: [0-9]+ cases" $R/san_*_gemm.log | head -12
lanes_finish
