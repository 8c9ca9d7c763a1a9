#!/bin/bash
# Thirty-eighth session, call 4: where the ~3 us between our GEMM's event
# time and its kernel's duration go (call 3), next to cuBLAS's: the gap from
# the spin's end to each kernel's start (bench/launch_gap.py).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "launch gap"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/launch_gap.py --reps 7 \
  --shapes "1,11008,4096;16,14336,4096;128,11008,4096;128,4096,4096;4096,4096,4096" > $R/gap.log 2>&1
echo "gap rc=$?"; grep -vE "$F" $R/gap.log | cut -c1-140
lanes_finish
