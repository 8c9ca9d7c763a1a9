#!/bin/bash
# GPU call 4 (2026-11-27, fifteenth session): add_rmsnorm's `_stage_`
# variants ranked for 16-bit rows off the grid (max_align 8); softmax's loop
# helpers shared with its stage kernel (sm_90a SASS unchanged).  Lane 0: the
# odd-row sweep of add_rmsnorm side by side (torch.compile in), its default
# shapes.  Lane 1: ops_gpu, variants_gpu, graph_gpu.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "odd sweep"
  timeout $(left 200) python3 bench/side_by_side.py --ops add_rmsnorm --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  timeout $(left 260) python3 bench/side_by_side.py --ops add_rmsnorm --json $R/side_default.json 2>&1 \
    | grep -vE "$F" > $R/side_default.log; echo "default rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu; do gpu_suite t_$s.log 260 $s; done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep -E "^(add_)" $R/side_odd.log $R/side_default.log | cut -c1-160
lanes_finish
