#!/bin/bash
# Thirty-eighth session, call 5: the TMA GEMV launched in clusters that
# share nothing (_p2 / _p4: where the CTAs land) and 32-column rings, pinned
# beside the pick, m = 1 / 16, bf16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "gemv place"
S="1,11008,4096;16,11008,4096;1,14336,4096;16,14336,4096;1,8448,4096;1,16896,8192"
CUDA_VISIBLE_DEVICES=0 timeout $(left 280) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --shapes "$S" \
  --variants --only "gemv_m16_n(32|64|128)_s(5|8|16)(_p[24])?_tma" --json $R/gemv_place.json 2>&1 | grep -vE "$F|^check ok" > $R/gemv_place.log
echo "gemv rc=$?"; cut -c1-110 $R/gemv_place.log
lanes_finish
