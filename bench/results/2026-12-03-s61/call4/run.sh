#!/bin/bash
# s61 call 4: issue 13's last bar and issue 12's skinny / m = 128 cells on
# the landed code (bff7e1e), in rounds: (1) decode d128, batch 8 and 1, five
# processes of attn_bench --decode-only; (2) the GEMM issue table once, both
# dtypes; (3) m = 1 / 16 / 128 at the issue's (n, k) again, both dtypes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
for k in 1 2 3 4 5; do
  el "decode round $k"
  timeout $(left $((40 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 8,1 \
    --decode-dims 128 --reps 40 --json $R/dec_$k.json > $R/dec_$k.log 2>&1
  echo "dec $k rc=$?"; grep -E "^bfloat16|decode:" $R/dec_$k.log | cut -c1-150
done
el "gemm issue table"
timeout $(left 420) python3 bench/gemm_bench.py --reps 15 --json $R/gemm_issue.json > $R/gemm_issue.log 2>&1
echo "gemm rc=$?"; grep -E "^(bfloat16|float16)|check\(s\)" $R/gemm_issue.log | cut -c1-110
SH="1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096;128,4096,4096;128,11008,4096;128,4096,11008;128,14336,4096"
el "gemm skinny again"
timeout $(left 570) python3 bench/gemm_bench.py --reps 20 --shapes "$SH" --json $R/gemm_sk.json > $R/gemm_sk.log 2>&1
echo "gemm sk rc=$?"; grep -E "^(bfloat16|float16)" $R/gemm_sk.log | cut -c1-110
lanes_finish
