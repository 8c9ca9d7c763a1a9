#!/bin/bash
# Twenty-sixth session, call 8: prefetch.tensormap at the TMA kernels' entry
# (GEMM wg and TMA GEMV, FA3).  A / B in one process against the packs
# before it (build/carry/old_sm90a.tar.xz: call 7's sm_90a pack), then
# gemm_gpu and attention_gpu whole on the new code.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
mkdir -p $OUT/old && tar -C $OUT/old -xJf build/carry/old_sm90a.tar.xz
el "a/b"
timeout $(left 150) python3 build/carry/ab_prefetch.py $OUT/old/packs 2>&1 | grep -vE "$F" | tee $R/ab.log
gpu_suite t_gemm_gpu.log 360 gemm_gpu
gpu_suite t_attention_gpu.log 560 attention_gpu
lanes_finish
