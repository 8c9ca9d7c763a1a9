#!/bin/bash
# GPU call 2 of the seventeenth session: (lane 0) the 128x256 3-stage
# variants with the raster's group of tile-rows at 4, 8, 16, 32 (g) and w0,
# against cuBLAS at 4096^3, 8192^3 and m = 4096 x (11008, 4096); (lane 1)
# ncu L2 / DRAM bytes, L2 hit rate and throughput of the same and of
# cuBLAS at 4096^3, and the tensor-pipe metric names this ncu knows.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "gemm variants"
  timeout $(left 200) python3 bench/gemm_bench.py --variants --only 'wg_128x256_s3_(e256|c2_e256_w0)' \
    --shapes "4096,4096,4096;8192,8192,8192;4096,11008,4096" --dtypes bf16 --reps 30 2>&1 | grep -vE "$F" > $R/gemm_var.log; echo "gemm var rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  ncu --query-metrics > $R/metrics_all.txt 2>&1
  grep -iE "gmma|tensor_op" $R/metrics_all.txt | head -40 > $R/metrics_tensor.txt
  M=gpu__time_duration.sum,sm__cycles_active.max,lts__t_bytes.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
  for v in gemm_bf16_wg_128x256_s3_e256_nk gemm_bf16_wg_128x256_s3_e256_w0_g16_nk gemm_bf16_wg_128x256_s3_e256_w0_g32_nk gemm_bf16_wg_128x256_s3_c2_e256_w0_nk; do
    el "ncu $v"
    KP_VARIANT=$v timeout $(left 200) ncu --metrics $M -k 'regex:gemm_|nvjet' --launch-skip 4 -c 2 \
      python3 bench/ncu_gemm.py 4096 4096 4096 --cublas > $R/ncu_$v.log 2>&1; echo "ncu rc=$?"
  done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log $R/metrics_tensor.txt
grep -E "^bfloat16|^ +gemm_|best:|failed" $R/gemm_var.log | head -40
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-z]|gemm_|nvjet" $f | grep -v PROF | cut -c1-110 | head -24; done
lanes_finish
