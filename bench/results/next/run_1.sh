#!/bin/bash
# GPU call for the twelfth session (written 2026-11-26, eleventh session, not
# yet run): three measurements NOTES 41 / Open leads ask for before more
# kernel work. Up to ~330 s of wall on two H100s (bench/lanes.sh; copy to
# build/carry/ with the packs).
#   lane 0: (a) why our B multicast moves more L2 bytes than no multicast
#           (GEMM 4096^3 128x256 with and without `_c2`, ncu's L2 traffic
#           by source and op; cuBLAS's kernel beside them);
#           (b) attention's L2 traffic: d128 unmasked 1K and 16K (`_p`) and
#           SDPA's cuDNN and flash kernels at 1K (is 1K L2-bound?).
#   lane 1: (c) GEMM m = 128, n = k = 4096 alone and inside the full table,
#           twice each, with the SM clock, power and temperature sampled
#           beside them (64x64 ran 0.96-0.97x alone, 0.80-0.97x in tables).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcnode_gpc.sum,lts__t_sectors_srcunit_ltcfabric.sum,dram__bytes_read.sum,gpu__time_duration.sum,launch__cluster_dim_x,launch__grid_size
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  # the L2 metrics this ncu knows (if one of M's is not among them, ncu
  # refuses the run: M falls back to the ones every recent ncu has)
  ncu --query-metrics 2>/dev/null | grep -oE "^lts__t_(sectors|bytes)[a-z_]*" | sort -u > $R/lts_metrics.txt
  grep -q "^lts__t_sectors_srcunit_ltcfabric$" $R/lts_metrics.txt ||
    M=lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,launch__cluster_dim_x,launch__grid_size
  for v in gemm_bf16_wg_128x256_s4_c2_e128_nk gemm_bf16_wg_128x256_s4_e128_nk; do
    KP_VARIANT=$v timeout $(left 120) ncu --clock-control none --metrics $M -k 'regex:gemm_' -c 2 \
      python3 bench/ncu_gemm.py 4096 4096 4096 > $R/ncu_l2_$v.log 2>&1; echo "ncu $v rc=$?"
  done
  timeout $(left 160) ncu --clock-control none --metrics $M -k 'regex:nvjet|sm90_xmma|cutlass' -c 2 \
    python3 bench/ncu_gemm.py 4096 4096 4096 --cublas > $R/ncu_l2_cublas.log 2>&1; echo "ncu cublas rc=$?"
  for s in 1024 16384; do
    b=$((16384 / s))
    timeout $(left 260) ncu --clock-control none --section SpeedOfLight --metrics $M \
      -k 'regex:attention_|cudnn|fmha|flash' -c 12 python3 bench/ncu_attn.py $b 16 16 $s $s 128 --sdpa \
      > $R/ncu_attn_l2_$s.log 2>&1; echo "ncu attn $s rc=$?"
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  nvidia-smi -i 1 --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 200 > $R/smi1.csv 2>&1 &
  SMI=$!
  for i in 1 2; do
    el "m128 alone $i"
    timeout $(left 300) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 50 --variants \
      --only 'wg_64x64_s13_nk' --shapes '128,4096,4096' 2>&1 | grep -vE "$F" > $R/m128_alone_$i.log
    el "table $i"
    timeout $(left 300) python3 bench/gemm_bench.py --variants --only 'wg_64x64_s13_nk' \
      2>&1 | grep -vE "$F" > $R/table_$i.log
  done
  kill $SMI
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "^  [a-z_]|lts__t|dram__|duration|cluster|grid_size" $R/ncu_l2_*.log | head -60
for f in $R/m128_alone_*.log $R/table_*.log; do echo "== $f"; grep -E "^(bfloat16|float16) +128 +4096 +4096|wg_64x64" $f; done
lanes_finish
