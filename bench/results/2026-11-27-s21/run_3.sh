#!/bin/bash
# The split-KV decode with its shares aligned over the KV heads (what lands
# in `_sk`), batch 64 .. 1, d128 / d64, side by side with SDPA; the d64
# split-KV with more in flight (w4x16 s5, w4x32 s3) pinned; correctness of
# every `_sk` (attention_gpu) and memcheck of them at d64.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  for rd in 1 2; do
    timeout $(left 300) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 64,32,16,8,4,2,1 --variants 'dec_w4x(16|32)_s[35]_sk$' \
      --json $R/sk_g${1}_$rd.json 2>&1 | grep -vE "$F" > $R/sk_g${1}_$rd.log
  done
  el "sk rounds done, GPU $1"
  if [ $1 = 0 ]; then
    export KP_TEST_ONLY='_sk'; gpu_suite att_sk.log 500 attention_gpu
  else
    san memcheck attention_gpu d64_dec_w4x san_mem.log 500
  fi
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/sk_g*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-125; done
lanes_finish
