#!/bin/bash
# GPU call 5 (2026-11-26, fourteenth session): rmsnorm_swiglu's loop over a
# cluster of CTAs (`_u<U>_c<CL>_p`, for the tuner; pass 1 now one helper per
# segment).  Lane 0: kp tune over its long rows, odd and aligned (every
# variant timed).  Lane 1: ops_gpu and variants_gpu (every variant at every
# residue), memcheck over the bf16 loops, racecheck over one cluster loop.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 300) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
    --shapes build/carry/shapes_c5.txt -o $R/c5.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu; do gpu_suite t_$s.log 200 $s; done
  el "memcheck"
  san memcheck variants_gpu "rmsnorm_swiglu_bf16_loop" san_memcheck.log 330
  el "racecheck"
  san racecheck variants_gpu "rmsnorm_swiglu_bf16_loop_t512_v8_u4_c4" san_racecheck.log 420
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep -v "^#" $R/c5.tune | awk '$1=="rmsnorm_swiglu"' | sort -k3,3 -k6,6n | awk '{c[$3]++; if (c[$3]<=6) print $3, $5, $6}'
lanes_finish
