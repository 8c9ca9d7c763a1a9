#!/bin/bash
# fifty-first session, call 6: main's tip -- aligned hidden sizes inside
# 1025-4096 that the friendly sweep lacks (1536, 2560, 3584), bf16; the new
# odd picks in f16 (1501, 2501, 3501); side by side, no torch.compile
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "aligned"
timeout $(left 120) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm --shapes 65536x1536,65536x2560,65536x3584 \
  --no-compile --reps 20 --warmup 4 --json $R/aligned.json > $R/aligned.log 2>&1
echo "aligned rc=$?"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm) " $R/aligned.log | cut -c1-100
el "f16"
timeout $(left 230) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm --shapes 65536x1501,65536x2501,65536x3501 \
  --dtypes f16 --no-compile --reps 20 --warmup 4 --json $R/f16.json > $R/f16.log 2>&1
echo "f16 rc=$?"; grep -E "^ *(softmax|rmsnorm|add_rmsnorm) " $R/f16.log | cut -c1-100
lanes_finish
