#!/bin/bash
# For a later session's first GPU call, on main after the twentieth session
# (build first: make -j2 all; make KP_SUB=1 build/tests/check_kernpack
# build/bin/kp build/bin/kpbench; carry the packs as bench/lanes.sh says).
# The 16-CTA decode clusters at batch 1 (issue 13; bench/NOTES.md 50): on
# H100s their time is bimodal by process (55.6-56.3 or 62.1-63.3 us, d128,
# Lq 1, Lk 32K, 32 / 8 heads), likely where the 8 working clusters of the 14
# launched land.  (lanes 0 and 1, one a GPU) 8 fresh processes each timing
# `_c16` and `_sk` pinned at batch 1 (d128, d64), then ncu's launch and
# occupancy sections of `_c16` (the clusters that fit at once, the grid).
# If the slow mode shows, the next change to try: a wave-only twin of the
# clusters launched with exactly the tiles' clusters (persistent = 1: 8
# clusters at batch 1 on 132 SMs), and one CTA an SM by its shared memory.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane() {
  GPU=$1; export CUDA_VISIBLE_DEVICES=$1
  for k in 1 2 3 4 5 6 7 8; do
    timeout $(left 300) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 1 --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' \
      --json $R/b1_g${1}_$k.json 2>&1 | grep -vE "$F" | grep -E "dec_w4" | cut -c1-110 > $R/b1_g${1}_$k.log
  done
  el "processes done, GPU $1"
  KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c16 timeout $(left 450) ncu --section LaunchStats \
    --section Occupancy -k regex:attention_ -c 1 python3 bench/ncu_attn.py 1 32 8 1 32768 128 \
    > $R/ncu_launch_g$1.log 2>&1
  el "lane $1 done"
}
lane 0 > $R/lane0.log 2>&1 &
lane 1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/b1_g*.log; do echo "== $f"; cat $f; done
grep -iE "cluster|grid|block limit|occupancy" $R/ncu_launch_g0.log | head -30
lanes_finish
