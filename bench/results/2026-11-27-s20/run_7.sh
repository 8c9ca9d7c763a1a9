#!/bin/bash
# The paged decode at batch 1: every 16-CTA cluster variant and `_sk`
# pinned, contiguous and paged (page 16, shuffled), d128 and d64, two
# rounds on two GPUs: does a deeper ring or 8 warps close the paged gap?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  export CUDA_VISIBLE_DEVICES=$1
  el "decode b1, variants, GPU $1"
  timeout $(left 300) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 1 --variants 'dec_.*_c16$|dec_w4x16_s3_sk$' --json $R/dec_g$1.json 2>&1 \
    | grep -vE "$F" > $R/dec_g$1.log
  el "done GPU $1"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/dec_g*.log; do echo "== $f"; grep -E "^bfloat16|dec_" $f | cut -c1-175; done
lanes_finish
