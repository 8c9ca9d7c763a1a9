#!/bin/bash
# GPU call 4 (2026-11-27, sixteenth session): why RMSNorm+SwiGLU's long rows
# stay at 55-72% of copy where RMSNorm's reach 78-86% -- ncu (full set) of
# one launch each: RMSNorm+SwiGLU odd 2048 x 50257 (stage, 2 CTAs), aligned
# 2048 x 50256 (the loop over 8 CTAs), RMSNorm odd 2048 x 50257 (stage, 2
# CTAs).  Lane 1: kp tune over call 3's rankings and the middle of their
# ranges (shapes_c4.txt), ops_gpu.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
prof() { # NAME OP SHAPE REGEX
  timeout $(left 200) ncu --set full -k "regex:$4" --launch-skip 2 -c 1 \
    python3 bench/side_by_side.py --shapes $3 --ops $2 --no-compile --reps 3 --warmup 1 \
    > $R/ncu_$1.log 2>&1; echo "ncu $1 rc=$?"
}
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  prof rs_odd rmsnorm_swiglu 2048x50257 "rmsnorm_swiglu_bf16_"
  prof rs_al rmsnorm_swiglu 2048x50256 "rmsnorm_swiglu_bf16_"
  prof rms_odd rmsnorm 2048x50257 "rmsnorm_bf16_"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  timeout $(left 120) build/bin/kp tune --device 0 --families softmax,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_c4.txt -o $R/c4.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  gpu_suite t_ops_gpu.log 200 ops_gpu
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep -E "default" $R/tune.log
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc|Shared Memory Configuration Size|Dynamic Shared" $f | head -24; done
lanes_finish
