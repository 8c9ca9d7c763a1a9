#!/bin/bash
# A next call (written by the forty-first session, NOTES item 76 and the
# GEMM m = 128 lead): where our one-round GEMM's consumers wait at 128 x 14336
# x 4096 against cuBLAS's kernel.  Warp-state samples by SASS instruction of
# both kernels (the last of five launches each), exported as CSV; read them
# for the samples on our `full` waits (SYNCS / try_wait loops of the
# consumers), the wgmma waits (WARPGROUP.DEPBAR) and the producer's `empty`
# waits, against cuBLAS's.  Then the same at 128 x 4096 x 4096 (one round of
# 64x64).  Build, carry, run as bench/results/next/run_1.sh says.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for shape in "128 14336 4096" "128 4096 4096"; do
  set -- $shape; n=m$1_n$2_k$3
  el "ncu $n"
  timeout $(left 250) ncu --section WarpStateStats --section SourceCounters -k regex:'gemm_|nvjet' \
    --launch-skip 4 -c 6 -o $R/$n python3 bench/ncu_gemm.py $1 $2 $3 --cublas > $R/$n.log 2>&1
  echo "ncu rc=$?"
  ncu -i $R/$n.ncu-rep --page details --csv > $R/$n.details.csv 2>&1
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n.sass.csv 2>&1
  grep -E "Stall|Warp Cycles" $R/$n.details.csv | cut -c1-200 | head -20
done
lanes_finish
