#!/bin/bash
# (a) split-KV decode over more CTAs than fit at once (the hardware's block
# scheduler deals the shares out as SMs free up): `_sk4` (4 an SM, >= 512
# keys a CTA) and `_sk8` (8 an SM, >= 1024 keys) against `_sk` at batch 8,
# 4, 2 (d128, d64), two rounds a GPU; their correctness (attention_gpu over
# `_sk`, memcheck over `_sk8`).  (b) the twentieth session's next call: the
# 16-CTA clusters at batch 1 in 8 fresh processes a GPU, ncu launch sections.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  for rd in 1 2; do
    timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 8,4,2 --variants 'dec_w4x16_s3_sk[48]?$' --json $R/sk_g${1}_$rd.json 2>&1 \
      | grep -vE "$F" > $R/sk_g${1}_$rd.log
  done
  el "sk rounds done, GPU $1"
  for k in 1 2 3 4 5 6; do
    timeout $(left 330) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 1 --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' \
      --json $R/b1_g${1}_$k.json 2>&1 | grep -vE "$F" | grep -E "dec_w4|^bfloat" | cut -c1-120 > $R/b1_g${1}_$k.log
  done
  el "processes done, GPU $1"
  if [ $1 = 0 ]; then
    export KP_TEST_ONLY=_sk; gpu_suite att_sk.log 450 attention_gpu
    KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c16 timeout $(left 520) ncu --section LaunchStats \
      --section Occupancy -k regex:attention_ -c 1 python3 bench/ncu_attn.py 1 32 8 1 32768 128 \
      > $R/ncu_launch_g$1.log 2>&1
  else
    san memcheck attention_gpu _sk8 mem_sk8.log 520
  fi
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/sk_g*.log; do echo "== $f"; grep -E "^bfloat16|dec_|decode:" $f | cut -c1-200; done
for f in $R/b1_g*.log; do echo "== $f"; cat $f; done
grep -iE "cluster|grid|block limit|occupancy" $R/ncu_launch_g0.log | head -30
lanes_finish
