#!/bin/bash
# GPU call 4 (2026-11-26, fourteenth session): kp_ld16_shift on 4-byte words
# and byte permutes (no selects; every family's inputs at another residue
# than the output's: a norm's weight under odd rows), softmax's row stats in
# one helper.  Lane 0: the norms' odd sweep side by side, GEMM m = 128 with B
# at several offsets in one allocation (placement sensitivity, issue 12).
# Lane 1: the suites that run every row variant at every residue, memcheck
# over the norms' variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "odd sweep, norms"
  timeout $(left 200) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --shapes-file bench/shapes_odd.txt --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "gemm offsets"
  for d in bf16 f16; do
    timeout 100 python3 bench/gemm_offsets.py --dtype $d > $R/offsets_$d.log 2>&1; echo "offsets $d rc=$?"
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu regen; do gpu_suite t_$s.log 300 $s; done
  el "memcheck"
  san memcheck variants_gpu "rmsnorm_bf16|softmax_bf16" san_memcheck.log 460
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep -E "^(softmax|rmsnorm|add_)" $R/side_odd.log | cut -c1-150
cat $R/offsets_*.log | grep -vE "$F"
lanes_finish
