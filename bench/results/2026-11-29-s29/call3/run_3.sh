#!/bin/bash
# Twenty-ninth session, call 3: GeGLU's erf form for 16-bit outputs through
# erfc's Chebyshev fit (geglu_gelu_erf16): every geglu variant against
# float64 (variants_gpu), ops_gpu; then A/B in one process: the GLUs of the
# odd sweep and the friendly shapes side by side with the packs before the
# change (packs_old) and after.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY=geglu gpu_suite t_variants_geglu.log 120 variants_gpu
gpu_suite t_ops_gpu.log 200 ops_gpu
mkdir -p build/old && tar -C build/old -xJf build/carry/packs_old.tar.xz
SH=131072x1001,16384x4097,8192x11007,2048x50257,512x151937,512x199999,32768x8192,4096x11008
i=0
for k in old new old new; do
  i=$((i + 1)); el "geglu $k $i"
  d=$PWD/build/packs; [ $k = old ] && d=$PWD/build/old/packs
  KP_PACK_DIR=$d timeout $(left 580) python3 bench/side_by_side.py --ops geglu_erf,geglu_tanh --reps 60 --shapes $SH \
    --json $R/side_${k}_$i.json 2>&1 | grep -vE "$F" > $R/side_${k}_$i.log
  grep -hE "^(geglu)" $R/side_${k}_$i.log | cut -c1-150
done
lanes_finish
