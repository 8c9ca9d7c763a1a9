#!/bin/bash
# forty-sixth session, call 9: 48 against 64 columns (TMA GEMV, pinned,
# bf16) at k > 4096 inside the ranked n range, two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
S="1,11008,8192;16,11008,8192;1,11008,5120;1,12288,8192;16,9216,8192;1,9216,5120"
for k in 1 2; do
  el "round $k"
  timeout $(left $((120 * k))) python3 bench/gemm_bench.py --dtypes bf16 --reps 30 --shapes "$S" --variants \
    --only "gemv_m16_n(48|64)_s5_tma_nk" --json $R/k_$k.json > $R/k_$k.log 2>&1
  echo "round $k rc=$?"; grep -vE "^check ok|does not apply" $R/k_$k.log | grep -E "^bfloat16|gemv_m" | cut -c1-96
done
lanes_finish
