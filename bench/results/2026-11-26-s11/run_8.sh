#!/bin/bash
# GPU call 8 of the eleventh session (2026-11-26, a90ef75): part (a) of
# bench/results/next/run_1.sh only, in the device time left: ncu's L2
# traffic by source for GEMM 4096^3 128x256 with and without the cluster's
# B multicast, and cuBLAS's kernel; the attention part (b) at 1K if time is left.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,gpu__time_duration.sum,launch__cluster_dim_x,launch__grid_size
ncu --query-metrics 2>/dev/null | grep -oE "^lts__t_(sectors|bytes)[a-z_]*" | sort -u > $R/lts_metrics.txt
grep -q "^lts__t_sectors_srcunit_ltcfabric$" $R/lts_metrics.txt ||
  M=lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,launch__cluster_dim_x,launch__grid_size
a() {
  export CUDA_VISIBLE_DEVICES=$1
  KP_VARIANT=$2 timeout $(left 100) ncu --clock-control none --metrics $M -k 'regex:gemm_' -c 2 \
    python3 bench/ncu_gemm.py 4096 4096 4096 > $R/ncu_l2_$2.log 2>&1; echo "ncu $2 rc=$?"
}
a 0 gemm_bf16_wg_128x256_s4_c2_e128_nk > $R/l0.log 2>&1 &
a 1 gemm_bf16_wg_128x256_s4_e128_nk > $R/l1.log 2>&1 &
wait
CUDA_VISIBLE_DEVICES=0 timeout $(left 125) ncu --clock-control none --metrics $M -k 'regex:nvjet|sm90_xmma|cutlass' -c 2 \
  python3 bench/ncu_gemm.py 4096 4096 4096 --cublas > $R/ncu_l2_cublas.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout $(left 125) ncu --clock-control none --metrics $M \
  -k 'regex:attention_|cudnn|fmha|flash' -c 12 python3 bench/ncu_attn.py 16 16 16 1024 1024 128 --sdpa \
  > $R/ncu_attn_l2_1024.log 2>&1 &
wait
cat $R/l0.log $R/l1.log; wc -l $R/lts_metrics.txt
grep -hE "^  [a-zA-Z_]|lts__t|dram__|duration|cluster|grid_size" $R/ncu_l2_*.log $R/ncu_attn_l2_1024.log | cut -c1-110 | head -90
lanes_finish
