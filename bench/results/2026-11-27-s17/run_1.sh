#!/bin/bash
# GPU call 1 of the seventeenth session (2026-11-27).  (lane 0) GEMM at
# 4096^3 and 8192^3: every 128x256 / 256x128 variant against cuBLAS,
# including the new experiments (w0: a consumer waits for each k-tile's
# group, holding one stage; s3_c2_e256: B multicast at 3 stages with the
# whole-tile epilogue); ncu cycles and tensor-pipe activity of the pick,
# w0 and cuBLAS; per-SASS stall samples of the pick; the gemm_gpu suite
# (every GEMM variant, float64 reference).  (lane 1) the sixteenth
# session's next call: kp tune over odd rows of 4K-80K, then ops_gpu and
# variants_gpu on this build.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ncu --query-metrics 2>/dev/null | grep -oE "^(sm__cycles_active|sm__pipe_tensor_op_gmma_cycles_active)[a-z_]*" | sort -u > $R/metrics.txt
M=gpu__time_duration.sum
grep -qx sm__cycles_active $R/metrics.txt && M=$M,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max
grep -qx sm__pipe_tensor_op_gmma_cycles_active $R/metrics.txt && M=$M,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "gemm variants"
  timeout $(left 150) python3 bench/gemm_bench.py --variants --only 'wg_(256x128|128x256)_s' \
    --shapes "4096,4096,4096;8192,8192,8192" --dtypes bf16 --reps 30 2>&1 | grep -vE "$F" > $R/gemm_var.log; echo "gemm var rc=$?"
  for v in gemm_bf16_wg_128x256_s3_e256_nk gemm_bf16_wg_128x256_s3_e256_w0_nk gemm_bf16_wg_128x256_s3_c2_e256_w0_nk; do
    el "ncu $v"
    KP_VARIANT=$v timeout $(left 260) ncu --metrics $M -k 'regex:gemm_|nvjet' --launch-skip 3 -c 4 \
      python3 bench/ncu_gemm.py 4096 4096 4096 --cublas > $R/ncu_$v.log 2>&1; echo "ncu rc=$?"
  done
  el "ncu source"
  timeout $(left 330) ncu --section SourceCounters --section WarpStateStats -k 'regex:gemm_' --launch-skip 3 -c 1 \
    -o $R/src python3 bench/ncu_gemm.py 4096 4096 4096 > $R/ncu_src.log 2>&1; echo "ncu src rc=$?"
  ncu -i $R/src.ncu-rep --page source --csv --print-source sass > $R/sass.csv 2>&1; echo "print rc=$?"
  ncu -i $R/src.ncu-rep --page details > $R/details.txt 2>&1
  rm -f $R/src.ncu-rep
  python3 bench/ncu_segments.py $R/sass.csv > $R/segments.txt 2>&1; echo "segments rc=$?"
  gpu_suite t_gemm_gpu.log 420 gemm_gpu
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "tune odd 4K-80K"
  timeout $(left 250) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_odd_mid.txt -o $R/odd_mid.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  for s in ops_gpu variants_gpu; do gpu_suite t_$s.log 420 $s; done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log $R/metrics.txt
grep -hE ":[EF]:" $R/t_*.log | head
grep -E "^(bf16|f16)|^ +gemm_|best:|failed" $R/gemm_var.log | head -40
for f in $R/ncu_*.log; do echo "== $f"; grep -E "^  [a-z_]|gemm_|nvjet|duration|cycles_active|gmma" $f | cut -c1-150 | head -40; done
head -40 $R/segments.txt
grep default $R/tune.log
lanes_finish
