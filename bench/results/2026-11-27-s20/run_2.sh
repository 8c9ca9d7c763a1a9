#!/bin/bash
# Decode at batch 1: a per-CTA trace of `_sk` (traced sm_90a pack in build/T)
# and ncu's CTAs an SM and warp states of `_sk` and cuDNN.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  mkdir -p build/T2 && xz -dc build/carry/T.kpk.xz > build/T2/sm_90a.kpk
  export CUDA_VISIBLE_DEVICES=0
  el "trace"
  KP_PACK_DIR=$PWD/build/T2 KP_CACHE_DIR=$OUT/cache_T timeout $(left 300) python3 build/carry/trace_dec.py > $R/trace.log 2>&1
  echo "trace rc=$?"
  el "lane0 done"
}
lane1() { return 0

  export CUDA_VISIBLE_DEVICES=1
  M=gpu__time_duration.sum,sm__ctas_launched.min,sm__ctas_launched.max,sm__ctas_launched.sum
  M=$M,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,dram__bytes_read.sum
  M=$M,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
  el "ncu sk"
  KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_sk timeout $(left 300) ncu --metrics $M \
    --section WarpStateStats -k regex:'attention_|cudnn' python3 bench/ncu_attn.py 1 32 8 1 32768 128 --sdpa \
    > $R/ncu_sk.log 2>&1
  echo "ncu rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
cat $R/trace.log | tail -80
grep -E "^\s+[a-z_]+.*\(|  [a-z]+__[a-z_.]+ |Stall|stall|Warp Cycles|Issued" $R/ncu_sk.log | cut -c1-150 | tail -70
lanes_finish
