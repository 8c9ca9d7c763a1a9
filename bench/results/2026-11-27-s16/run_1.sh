#!/bin/bash
# The next session's first GPU call, written at the end of the fifteenth
# (2026-11-27), which ran out of device time: (lane 0) the odd-row sweep of
# every family side by side -- RMSNorm+SwiGLU's stage ranking (call 6 of
# bench/results/2026-11-27-s15) has not run side by side yet -- then the
# default shapes; (lane 1) kp tune over aligned long rows (shapes beside
# this script), to decide whether the stage variants should also take
# aligned calls (NOTES 45, Open leads), then every GPU suite.
# As run in the sixteenth session's call 1: lane 0's default sweep replaced
# by the PDL chain (pdl_bench.py), the baseline for an L2 prefetch.
# Copy this script and shapes_aligned.txt to build/carry/ first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "odd sweep"
  timeout $(left 250) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  PYTHONPATH=python timeout $(left 400) python3 bench/pdl_bench.py --json $R/pdl.json 2>&1 \
    | grep -vE "$F" > $R/pdl.log; echo "pdl rc=$?"
  tail -12 $R/pdl.log
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "tune aligned"
  timeout $(left 250) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_aligned.txt -o $R/aligned.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  for s in ops_gpu variants_gpu graph_gpu api; do gpu_suite t_$s.log 540 $s; done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep default $R/tune.log
grep -E "^(softmax|rmsnorm|add_|swiglu|geglu|rope)" $R/side_odd.log | cut -c1-160
lanes_finish
