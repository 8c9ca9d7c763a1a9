#!/bin/bash
# Call 7 (fortieth session): is the long odd rows' loss (RMSNorm 80.6 / 81.5%
# of copy at 512 x 151937 / 199999) the rounds of clusters?  RMSNorm and
# softmax at 151937 with 492 / 512 / 574 / 656 / 1024 rows (82 clusters of
# 8 fit at once: 6.0 / 6.2 / 7.0 / 8.0 / 12.5 rounds), 199999 at 512 / 528 /
# 1024; side by side with eager (no torch.compile), bf16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el waves
CUDA_VISIBLE_DEVICES=0 timeout $(left 250) python3 bench/side_by_side.py --ops rmsnorm,softmax --no-compile --reps 60 \
  --shapes "492x151937,512x151937,574x151937,656x151937,1024x151937,512x199999,528x199999,1024x199999" \
  --json $R/waves.json 2>&1 | grep -vE "$F" > $R/waves.log
echo "waves rc=$?"; grep -E "^(rmsnorm|softmax) " $R/waves.log | cut -c1-110
lanes_finish
