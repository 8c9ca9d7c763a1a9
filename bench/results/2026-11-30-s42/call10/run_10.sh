#!/bin/bash
# Call 10 (forty-second session): the landed code (a row-after-row chunk
# buffer holds EC columns, not EC rounded to 64): gemm_gpu whole; memcheck
# and racecheck over the row-after-row tiles (EC 88 / 112 / 168 / 176, both
# forms); graph_gpu and ops_gpu (GEMM in the PDL chain); attention_gpu (its
# maps through kp_tmap_encode's new swizzle argument).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
gpu_suite gemm.log 180 gemm_gpu
grep -hE "variants on" $R/gemm.log | tail -2
T="_e88_|_e112_|_e168_|_e176_"
san memcheck gemm_gpu "$T" mem.log 250
grep -hE "variants on" $R/mem.log | tail -2
san racecheck gemm_gpu "128x112_s6_e112_pl|128x88_s6_e88_nk|128x176_s4_e176_pl" race.log 330
grep -hE "variants on" $R/race.log | tail -2
gpu_suite graph.log 380 graph_gpu
gpu_suite ops.log 440 ops_gpu
gpu_suite attention.log 590 attention_gpu
lanes_finish
