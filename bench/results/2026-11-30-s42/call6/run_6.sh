#!/bin/bash
# Call 6 (forty-second session): the `_e` tiles' D stored by TMA (every `_e`
# variant but 128x64's): gemm_gpu whole (every variant against float64, both
# dtypes, the picks at large shapes), then compute-sanitizer memcheck and
# synccheck over every `_e` variant's every-variant cases, racecheck over
# one tile of each layout (rows: 128x112; panels: 128x128, 128x256 w0; a
# B-sharing cluster; B as (k, n)).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 190 gemm_gpu
grep -hE "variants on" $R/gemm.log | tail -2
san memcheck gemm_gpu "_e" mem.log 330
grep -hE "variants on" $R/mem.log | tail -2
san synccheck gemm_gpu "_e" sync.log 430
grep -hE "variants on" $R/sync.log | tail -2
san racecheck gemm_gpu "128x112_s6_e112_pl|128x128_s6_e128_pl|128x256_s3_e256_w0|128x256_s4_c2|128x192_s4_e192_kn" race.log 575
grep -hE "variants on" $R/race.log | tail -2
lanes_finish
