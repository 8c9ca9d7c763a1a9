#!/bin/bash
# For a later session's first GPU call, on main after the twentieth session
# (build first: make -j2 all; make KP_SUB=1 build/tests/check_kernpack
# build/bin/kp build/bin/kpbench; carry the packs as bench/lanes.sh says).
# The paged decode at batch 1 (issue 13's "paged within 5%"; bench/NOTES.md
# 50): since the 16-CTA clusters are the pick there (+wave), contiguous d128
# runs 46.1 us and paged (page 16, pages shuffled) 50.4-50.6 by either
# kernel, 1.08-1.10x; `_sk` loses only 1-2% paged.  (lane 0) ncu of `_c16`
# and `_sk`, contiguous and paged, d128 batch 1: DRAM throughput and bytes,
# L2 sectors a request and hit rate, the warps' stall reasons (long
# scoreboard, barrier, MIO); (lane 1) the decode rows with page 16, 64 and
# 256, `_sk` and `_c16` pinned: does a bigger page close it?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
M=$M,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
M=$M,sm__cycles_active.avg,sm__cycles_active.max,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  dl=100
  for v in attention_bf16_d128_dec_w4x16_s3_c16 attention_bf16_d128_dec_w4x16_s3_sk; do
    el "ncu $v"
    KP_VARIANT=$v timeout $(left $dl) ncu --metrics $M --section WarpStateStats -k regex:attention_ \
      python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_$v.log 2>&1
    echo "ncu rc=$?"
    dl=190
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for pg in 16 64 256; do
    el "decode rows, page $pg"
    timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128 \
      --decode-batches 1,8 --page $pg --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' \
      --json $R/dec_p$pg.json 2>&1 | grep -vE "$F" > $R/dec_p$pg.log
  done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/dec_p*.log; do echo "== $f"; grep -E "^bfloat16|dec_w4|decode:" $f | cut -c1-200; done
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^\s+attention|  [a-z]+__[a-z_.]+ |Stall|stall" $f | cut -c1-150 | tail -40; done
lanes_finish
