#!/bin/bash
# Twenty-second session, call 18 (one GPU): kp tune flushes L2 by a read (was a memset); its
# decode keys (3 allocations, median): batch 1 and batch 8
# (d128, 32 / 8 heads, Lk 32K, bf16, with a workspace) tuned twice, then
# the tune and regen GPU suites (kp tune's and kp regen's paths).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
printf 'attention/full+ws 1 32768 32 128 4\nattention/full+ws 1 32768 256 128 4\n' > $R/dec.shapes
for k in 1 2; do
  el "tune $k"
  timeout $(left 200) build/bin/kp tune --dtypes bf16 --shapes $R/dec.shapes -o $R/dec_$k.tune > $R/tune_$k.log 2>&1
  echo "tune $k rc=$?"; grep -E "default|rejected" $R/tune_$k.log | cut -c1-200
  grep -E "dec_" $R/dec_$k.tune | awk '{print $3, $7, $6, $5}' | sort -k1,1 -k3n | head -30
done
for s in tune regen; do gpu_suite t_$s.log 500 $s; done
lanes_finish
