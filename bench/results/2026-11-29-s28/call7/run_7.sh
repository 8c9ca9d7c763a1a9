#!/bin/bash
# Call 7 (twenty-eighth session): the new odd-row picks (softmax 8193-12288,
# RMSNorm 4097-8192) side by side; ops_gpu and api on the final code; the
# decode rows again (the push merge, pick against cuDNN in a second process).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_ops_gpu.log 80 ops_gpu
gpu_suite t_api.log 110 api
el "side"
timeout $(left 250) python3 bench/side_by_side.py --shapes-file build/carry/shapes_c7.txt \
  --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side.log | cut -c1-150
el "decode"
timeout $(left 400) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --decode-dims 128 \
  --reps 30 --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-200
lanes_finish
