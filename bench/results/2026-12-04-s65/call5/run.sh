#!/bin/bash
# s65 call 5: the bars of issues 13 and 12 on main's code, for the record:
# the decode rows (d128, 32 / 8 heads, 32K keys, batch 8 and 1) in two
# processes, then the GEMM issue table (both dtypes, 20 reps) in one.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for k in 1 2; do
  el "decode $k"
  timeout $(left $((60 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 8,1 \
    --json "$R/dec_$k.json" >"$R/dec_$k.log" 2>&1
  echo "dec $k rc=$?"; grep -E "decode|batch" "$R/dec_$k.log" | head -8 | cut -c1-200
done
el gemm
timeout $(left 390) python3 bench/gemm_bench.py --reps 20 --json "$R/gemm.json" >"$R/gemm.log" 2>&1
echo "gemm rc=$?"; tail -45 "$R/gemm.log" | cut -c1-160
lanes_finish
