#!/bin/bash
# GPU call G (2026-11-26, seventh session): kp tune on one GPU and over two from one
# queue (largest first) on the same host; lane 1 meanwhile: Python GPU tests (paged
# attention on the final decode); then the GEMM benchmark (m 9-16 ranked to the ring
# GEMV) and ncu of the m = 16 GEMV against cuBLAS's.
cd "$(dirname "$0")/../.." || exit 1
tar -C build -xJf build/carry/packs.tar.xz
chmod +x build/bin/* build/tests/* 2>/dev/null
export KP_PACK_DIR=$PWD/build/packs KP_TEMPLATE_DIR=$PWD/templates PYTHONUNBUFFERED=1 CUDA_CACHE_DISABLE=1
export KP_CACHE_DIR=$OUT/cache
R=$OUT/r; mkdir -p $R
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L
JOB="--families rmsnorm --dtypes bf16 --reps 9 -q"
(
  el "lane1: python gpu"
  CUDA_VISIBLE_DEVICES=1 KP_REQUIRE_GPU=1 timeout 150 python3 python/tests/run_gpu.py > $R/python_gpu.log 2>&1; echo "python rc=$?"; tail -2 $R/python_gpu.log
) > $R/lane1.log 2>&1 &
el "tune one GPU"
s=$(date +%s%N); timeout 110 build/bin/kp tune --device 0 $JOB -o $R/single.tune > $R/tune_single.log 2>&1; echo "tune single rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
wait
cat $R/lane1.log
el "tune two GPUs"
s=$(date +%s%N); timeout 80 build/bin/kp tune --devices 0,1 $JOB -o $R/multi.tune > $R/tune_multi.log 2>&1; echo "tune multi rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms"
grep "tasks, " $R/tune_single.log $R/tune_multi.log
export CUDA_VISIBLE_DEVICES=0
el "gemm"
timeout 100 python3 bench/gemm_bench.py --dtypes bf16 --json $R/gemm.json > $R/gemm.log 2>&1; echo "gemm rc=$?"
grep -E "^bfloat16" $R/gemm.log
el "ncu gemv m16"
NCU="ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
timeout 90 $NCU -k 'regex:gemm_|gemv|gemm|nvjet|splitK|sm90' -c 12 python3 bench/ncu_gemm.py 16 11008 4096 --cublas > $R/ncu_gemv16.log 2>&1; echo "ncu rc=$?"
grep -E '^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Grid Size|Registers Per|Waves Per SM' $R/ncu_gemv16.log | cut -c1-140 | tail -30
tar -C $OUT -cJf $OUT/r.tar.xz r && rm -rf $R
el end
