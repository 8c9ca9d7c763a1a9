#!/bin/bash
# 41st session call 4: B streamed by TMA boxes as the GEMM at m = 128 does
# (bench/read_ceiling.cu's bands); the decode clusters at batch 1 under ncu,
# contiguous against paged (instructions, active cycles).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "bands"
nvcc -O3 -arch=sm_90a -o $R/rc bench/read_ceiling.cu -lcuda 2>/dev/null && timeout $(left 200) $R/rc 1024 > $R/read_ceiling.log 2>&1
sed -n '/B bands/,$p' $R/read_ceiling.log; rm -f $R/rc
el "ncu decode"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_active.avg,sm__cycles_active.max,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__average_warp_latency_per_inst_issued.ratio
KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c16 timeout $(left 400) ncu --metrics $M -k regex:attention_ \
  python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec.log 2>&1
echo "ncu rc=$?"; grep -E "attention_|duration|inst_executed|cycles_active|stalled|latency" $R/ncu_dec.log | cut -c1-150
lanes_finish
