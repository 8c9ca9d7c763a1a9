#!/bin/bash
# For the next session's first call (copy to build/carry/, carry the packs):
# what the twenty-third session could not run for want of device time.
# (a) attention_gpu whole with the stricter every-variant case (4b838f3: a
# variant the device can run that takes no case fails); (b) the other GPU
# suites on the final code; (c) head dims 96 / 256 side by side on
# whatever GPU comes (the twenty-third measured them on H100s only: NOTES
# 57).  About 8 minutes on one GPU.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
for s in attention_gpu ops_gpu variants_gpu gemm_gpu api jit concurrency graph_gpu; do
  gpu_suite t_$s.log 360 $s
done
el "bench d96 / d256"
timeout $(left 540) python3 bench/attn_bench.py --reps 20 --dims 96,256 --seqs 1024,4096,16384 \
  --decode-dims 96,256 --decode-batches 8,1 --json $R/bench.json 2>&1 | grep -vE "$F" > $R/bench.log
grep -E "^bfloat16|decode:" $R/bench.log | cut -c1-170
lanes_finish
