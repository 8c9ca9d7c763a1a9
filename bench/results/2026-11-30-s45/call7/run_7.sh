#!/bin/bash
# forty-fifth session, call 7 (experiment, not landed): the GEMM store warps
# run their pass once dry at entry (no barrier, the TMA store predicated
# off), so that its code is in the SM's instruction caches at the tile's end
# (NOTES 80's lead) -- new -- against 8c8304d's GEMM kernels (old), in
# turns at m = 128 and two larger shapes; every `_e` (chunked epilogue)
# GEMM variant against float64
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p /tmp/oldp && xz -dc build/carry/sm_90a_old.kpk.xz > /tmp/oldp/sm_90a.kpk
el "gemm _e variants"
KP_TEST_ONLY="_e" CK_RUN_CASE=gemm gpu_suite gemm_e.log 120 gemm_gpu
S="128,11008,4096;128,14336,4096;128,4096,11008;512,4096,4096;4096,4096,4096"
for k in 1 2; do
  for P in new old; do
    D=$KP_PACK_DIR; [ $P = old ] && D=/tmp/oldp
    el "$P $k"
    KP_PACK_DIR=$D timeout $(left $((140 + 50 * k))) python3 bench/gemm_bench.py --reps 20 --shapes "$S" \
      --json $R/gemm_${P}_$k.json > $R/gemm_${P}_$k.log 2>&1
    echo "$P $k rc=$?"; grep -E "^(bfloat16|float16)" $R/gemm_${P}_$k.log | cut -c1-120
  done
done
el end
lanes_finish
