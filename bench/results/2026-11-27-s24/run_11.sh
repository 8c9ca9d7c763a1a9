#!/bin/bash
# Call 11: kp tune over the GEMM shapes of bench/shapes_gemm.txt (the issue's
# and mid m, both B layouts, f16 and bf16) on an H100 with the final pack: the
# table for the repo, and where the tuner's winners differ from the fill
# tie-break's picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
el "kp tune gemm"
timeout $(left 560) build/bin/kp tune --shapes bench/shapes_gemm.txt --time-budget 480 \
  -o $R/h100_gemm.tune > $R/tune.log 2>&1
echo "tune rc=$?"; tail -5 $R/tune.log | cut -c1-200
grep -c "^gemm" $R/h100_gemm.tune
lanes_finish
