#!/bin/bash
# (a) `_ska`: the split-KV decode with its grid cut to a multiple of the
# tiles, so every KV head's CTAs read the same keys at once (K and V rows of
# the 8 heads share 2 KB), against `_sk`, batch 8, 4, 2, 1, d128 / d64;
# (b) `_c16s`: the 16-CTA clusters at one CTA an SM (shared memory padded to
# 120 KB) against `_c16` at batch 1 -- how many clusters fit, and is the
# slow mode gone.  Correctness: attention_gpu over both, memcheck `_ska`.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  for rd in 1 2; do
    timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 8,4,2 --variants 'dec_w4x16_s3_ska?$' --json $R/sk_g${1}_$rd.json 2>&1 \
      | grep -vE "$F" > $R/sk_g${1}_$rd.log
  done
  el "sk rounds done, GPU $1"
  for k in 1 2 3 4 5 6; do
    timeout $(left 330) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 1 --variants 'dec_w4x16_s3_(ska?|c16s?)$' \
      --json $R/b1_g${1}_$k.json 2>&1 | grep -vE "$F" | grep -E "dec_w4|^bfloat|decode:" | cut -c1-200 > $R/b1_g${1}_$k.log
  done
  el "processes done, GPU $1"
  if [ $1 = 0 ]; then
    export KP_TEST_ONLY='_ska|_c16s'; gpu_suite att_new.log 450 attention_gpu
    KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c16s timeout $(left 520) ncu --section LaunchStats \
      --section Occupancy -k regex:attention_ -c 1 python3 bench/ncu_attn.py 1 32 8 1 32768 128 \
      > $R/ncu_launch_g$1.log 2>&1
  else
    san memcheck attention_gpu _ska mem_ska.log 450
  fi
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/sk_g*.log; do echo "== $f"; grep -E "dec_" $f | cut -c1-120; done
for f in $R/b1_g*.log; do echo "== $f"; grep -E "dec_" $f | cut -c1-120; done
grep -iE "cluster|grid|block limit|occupancy" $R/ncu_launch_g0.log | head -30
lanes_finish
