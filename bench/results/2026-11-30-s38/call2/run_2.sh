#!/bin/bash
# Thirty-eighth session, call 2: is the TMA GEMV's B rate set by how its
# CTAs fill the SMs?  n = 8448 (132 strips of 64 columns) and 16896 (132
# strips of 128) against 11008 / 14336, each TMA ring pinned, m = 1, bf16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "gemv fill"
S="1,8448,4096;1,16896,4096;1,11008,4096;1,14336,4096;1,16896,8192;1,8448,8192;1,4224,16384"
CUDA_VISIBLE_DEVICES=0 timeout $(left 250) python3 bench/gemm_bench.py --dtypes bf16 --reps 21 --shapes "$S" \
  --variants --only "gemv_m16_n(64|128)_s(5|10)_tma" --peer-kernels --json $R/gemv_fill.json 2>&1 | grep -vE "$F|^check" > $R/gemv_fill.log
echo "gemv rc=$?"; cut -c1-110 $R/gemv_fill.log
lanes_finish
