#!/bin/bash
# Call 14 (fortieth session): the last checks on the landed code (419280f):
# compute-sanitizer over 128x64_s8_k2_kn, now ranked to m = 128 (its every-
# variant cases up to m = 128 run now), then gemm_gpu whole (every variant,
# the selection's picks at large shapes: plain calls now take call 11's
# twins at m = 256-2048).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
T="128x64_s8_k2_kn"
san memcheck gemm_gpu "$T" mem.log 25
san racecheck gemm_gpu "$T" race.log 45
grep -hE "_kn: [0-9]+ cases" $R/mem.log $R/race.log
gpu_suite gemm.log 185 gemm_gpu
grep -hE "variants on" $R/gemm.log | tail -2
lanes_finish
