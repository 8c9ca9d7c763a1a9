#!/bin/bash
# GPU call 4 of the seventeenth session, on what is to land: (lane 0) the
# GEMM suite (every variant, float64 reference: the stmatrix epilogue, the
# w0 pick), the issue's GEMM table side by side with cuBLAS (bf16, f16),
# the 128x256 variants at 4096^3, compute-sanitizer racecheck / synccheck /
# memcheck over the `_e` variants; (lane 1) ops_gpu, variants_gpu, kp tune
# around the three re-ranked odd lengths, the odd sweep side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_gemm_gpu.log 120 gemm_gpu
  el "gemm table"
  timeout $(left 260) python3 bench/gemm_bench.py --json $R/gemm.json 2>&1 | grep -vE "$F" > $R/gemm.log; echo "gemm rc=$?"
  el "gemm variants"
  timeout $(left 330) python3 bench/gemm_bench.py --variants --only 'wg_128x256_s(3|4_e128_nk)' \
    --shapes "4096,4096,4096;4096,4096,4096" --dtypes bf16 --reps 30 2>&1 | grep -vE "$F" > $R/gemm_var.log; echo "gemm var rc=$?"
  san racecheck gemm_gpu "_e" san_racecheck.log 420
  san synccheck gemm_gpu "_e" san_synccheck.log 490
  san memcheck gemm_gpu "_e" san_memcheck.log 560
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu; do gpu_suite t_$s.log 200 $s; done
  el "tune"
  timeout $(left 330) build/bin/kp tune --device 0 --families softmax,add_rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_c4.txt -o $R/c4.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  el "odd sweep"
  timeout $(left 520) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -E "^(bfloat16|float16)|best:|failed" $R/gemm.log $R/gemm_var.log | cut -c1-150 | head -60
grep -E "^ +gemm_" $R/gemm_var.log
grep default $R/tune.log
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log | cut -c1-160
lanes_finish
