#!/bin/bash
# Sixtieth session, call 6: the odd sweep (issue 14 part 1's bar, bf16) of
# the four families below it, on f8b09d2's ranking (the `_ppers` variants
# of this build are tuner-only: no pick changes)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "odd sweep"
grep -E "^(softmax|rmsnorm|add_rmsnorm|rmsnorm_swiglu) " bench/shapes_odd.txt > $R/odd.txt
timeout $(left 480) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu --dtypes bf16 \
  --shapes-file $R/odd.txt --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1; echo "odd rc=$?"
python3 -c "
import json; d=json.load(open('$R/odd.json'))
for r in d['results']: print(r['op'], r['shape'], '%.1f'%r['pct_copy_ours'], '%.2f'%r['ratio_ours_best_peer'])"
lanes_finish
