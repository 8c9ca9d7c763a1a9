#!/bin/bash
# +wave for contiguous K and V only (paged decode: `_sk`): the decode rows
# at batch 1 and 8, d128 and d64, the pick with its paged form, twice.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  export CUDA_VISIBLE_DEVICES=$1
  timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 1,8 --json $R/dec_g$1.json 2>&1 | grep -vE "$F" > $R/dec_g$1.log
  el "done GPU $1"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/dec_g*.log; do echo "== $f"; grep -E "^bfloat16|decode:" $f | cut -c1-190; done
lanes_finish
