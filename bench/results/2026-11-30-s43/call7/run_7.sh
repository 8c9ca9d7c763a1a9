#!/bin/bash
# Call 7 (forty-third session): the read flush moved into the runtime
# (kp_flush_read_ptx) -- kp tune and kpbench both flush by it now; the long
# rows against their row count again, read flush, for the intercepts.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
printf 'rmsnorm 512 151937\nsoftmax 512 151937\n' > $R/shapes.txt
el "kp tune"
CUDA_VISIBLE_DEVICES=0 timeout $(left 120) build/bin/kp tune --device 0 --families rmsnorm,softmax --dtypes bf16 \
  --reps 5 --shapes $R/shapes.txt -q -o $R/t.tune > $R/tune.log 2>&1; echo "tune rc=$?"
grep -i "flush\|error" $R/tune.log | head -3; sort -k6 -n $R/t.tune | grep -v "^#" | head -4 | cut -c1-150
el kpbench
CUDA_VISIBLE_DEVICES=0 timeout $(left 260) build/bin/kpbench --op rmsnorm,softmax --shape llm,large --dtype bf16 \
  --overhead-n 2000 > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
grep -E "^timing|^copy|%\)" $R/kpbench.log | head -30 | cut -c1-170
el "rows sweep, read flush"
CUDA_VISIBLE_DEVICES=0 timeout $(left 450) python3 bench/side_by_side.py --ops rmsnorm,softmax,add_rmsnorm --no-compile --reps 30 \
  --shapes 256x151937,512x151937,1024x151937,2048x151937,1024x50257,2048x50257,8192x50257 \
  --json $R/rows.json > $R/rows.log 2>&1; echo "sbs rc=$?"
grep -E "^copy|^(rmsnorm|softmax|add_rmsnorm) " $R/rows.log | cut -c1-150
lanes_finish
