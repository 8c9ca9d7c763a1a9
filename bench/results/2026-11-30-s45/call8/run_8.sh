#!/bin/bash
# forty-fifth session, call 8 (experiment): the TMA GEMV's plain store code
# run once dry at entry (pass 0, nothing stored) while the first stages
# load -- new -- against the same kernels without it (old), in turns at the
# issue's m = 1 / 16 shapes; every `_tma_` GEMV variant against float64
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p /tmp/oldp && xz -dc build/carry/sm_90a_old.kpk.xz > /tmp/oldp/sm_90a.kpk
el "gemv _tma_ variants"
KP_TEST_ONLY="_tma_" CK_RUN_CASE=gemm gpu_suite gemm_tma.log 100 gemm_gpu
S="1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096"
for k in 1 2; do
  for P in new old; do
    D=$KP_PACK_DIR; [ $P = old ] && D=/tmp/oldp
    el "$P $k"
    KP_PACK_DIR=$D timeout $(left $((120 + 45 * k))) python3 bench/gemm_bench.py --reps 30 --shapes "$S" \
      --json $R/gemv_${P}_$k.json > $R/gemv_${P}_$k.log 2>&1
    echo "$P $k rc=$?"; grep -E "^(bfloat16|float16)" $R/gemv_${P}_$k.log | cut -c1-100
  done
done
el end
lanes_finish
