#!/bin/bash
# The aligned split-KV `_sk` against two placements of it: `_sk_g8` / `_sk_g4`
# (clusters of 8 / 4 CTAs, the grid share-major: a share's tiles -- the KV
# heads of a batch -- on one GPC, so they read the same keys at one pace),
# and `_sk_p3` (d64, 3 CTAs an SM), batch 16 .. 1, two rounds a GPU; ncu
# launch stats of `_sk_g8` / `_sk_g4` at batch 8 (the clusters that fit);
# correctness of the new variants (attention_gpu).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  for rd in 1 2; do
    timeout $(left 300) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s3_sk(_g[48]|_p3)?$' \
      --json $R/sk_g${1}_$rd.json 2>&1 | grep -vE "$F" > $R/sk_g${1}_$rd.log
  done
  el "sk rounds done, GPU $1"
  if [ $1 = 0 ]; then
    export KP_TEST_ONLY='_sk_'; gpu_suite att_sk.log 500 attention_gpu
  else
    for v in g8 g4; do
      KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_sk_$v timeout $(left 500) ncu --section LaunchStats \
        -k regex:attention_ -c 1 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_$v.log 2>&1
    done
  fi
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/sk_g*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-112; done
grep -E "Grid Size|Cluster Size" $R/ncu_g*.log
lanes_finish
