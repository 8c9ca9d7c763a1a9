#!/bin/bash
# Call 4 (twenty-eighth session): synccheck where the tool copes (clusters
# of 2 and 8: the st.async exchange of the row kernels and the decode's
# 8-CTA push merge), the minimal kernel at 16 with more tracked barriers;
# ncu of the decode at batch 1, contiguous against paged (page 16), the
# clusters and the split-KV kernel.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
chmod +x build/carry/sc/stasync
compute-sanitizer --tool synccheck --num-cuda-barriers 65536 build/carry/sc/stasync > $R/sc_sync_nb.log 2>&1
echo "synccheck (more barriers) rc=$?"; grep -vE "^=========\s+(at|in|by)|Host Frame|^\s*$" $R/sc_sync_nb.log | head -12
san synccheck variants_gpu "rmsnorm_bf16_loop_t256_v8_u4_c8_p|rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c2|softmax_bf16_stage_t512_v8_u2_s64_c2" san_sync_rows.log 150
grep -E "cases|variants" $R/san_sync_rows.log | head -8
san synccheck attention_gpu "bf16_d128_dec_w4x16_s3_c8" san_sync_c8.log 230
grep -E "_c8: [0-9]+ cases|Barrier error" $R/san_sync_c8.log | head -5
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum,smsp__average_warp_latency_per_inst_issued.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum
for v in attention_bf16_d128_dec_w4x16_s3_c16 attention_bf16_d128_dec_w4x16_s2_sk; do
  el "ncu $v"
  KP_VARIANT=$v timeout $(left 560) ncu --metrics $M -k regex:'attention_' \
    python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_$v.log 2>&1
  echo "ncu rc=$?"
  grep -E "attention_bf16|gpu__time|dram__|lts__t_sector_hit|sm__cycles|inst_executed|latency_per|stalled" $R/ncu_$v.log | \
    awk '/attention_bf16/{n++} n==3||n==6' | cut -c1-120
done
lanes_finish
