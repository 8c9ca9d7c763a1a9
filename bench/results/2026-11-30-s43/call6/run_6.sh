#!/bin/bash
# Call 6 (forty-third session): the odd sweep side by side (issue 14 part 1),
# every op, bf16, with L2 flushed by a read (side_by_side.py's new default);
# then the norms and softmax with the old flush (zero_) beside it: call 5 found
# ~10 us of every long-row call to be the zero_ flush's dirty lines draining.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "side odd, read flush"
CUDA_VISIBLE_DEVICES=0 timeout $(left 380) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "side_odd rc=$?"
grep -E "^copy|^(softmax|rmsnorm|add_rms|swiglu|geglu|rmsnorm_sw|rope) " $R/side_odd.log | cut -c1-150
el "side odd, zero_ flush (no compile)"
CUDA_VISIBLE_DEVICES=0 timeout $(left 560) python3 bench/side_by_side.py --flush zero --no-compile --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
  --shapes-file bench/shapes_odd.txt --reps 50 --json $R/side_odd_zero.json 2>&1 | grep -vE "$F" > $R/side_odd_zero.log; echo "zero rc=$?"
grep -E "^copy|^(softmax|rmsnorm|add_rms|rmsnorm_sw) " $R/side_odd_zero.log | cut -c1-150
lanes_finish
