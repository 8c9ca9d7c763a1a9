#!/bin/bash
# EXPERIMENT (dec_hw.patch here, not landed): the split-KV decode with a KV
# head a warp (`_dec_h4` / `_dec_h8`: a CTA reads 4 / 8 heads' rows of the
# same keys at once) against `_sk`, batch 16 .. 1, d128 / d64, pinned, two
# rounds a GPU; correctness first (attention_gpu over them, with grids for 2
# and 3 SMs), memcheck.  (Its failures are the test's kept workspace, made
# at one SM count and used at another: mended in check_attention_gpu.c.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  if [ $1 = 0 ]; then
    export KP_TEST_ONLY='_dec_h'; gpu_suite att_h.log 150 attention_gpu; unset KP_TEST_ONLY
  else
    san memcheck attention_gpu _dec_h san_mem.log 150
  fi
  for rd in 1 2; do
    timeout $(left 330) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants 'dec_(w4|h4|h8)x16_s3_sk$' \
      --json $R/hw_g${1}_$rd.json 2>&1 | grep -vE "$F" > $R/hw_g${1}_$rd.log
  done
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
grep -hE ":[EF]:" $R/att_h.log $R/san_mem.log | head -5 | cut -c1-300
for f in $R/hw_g*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-112; done
lanes_finish
