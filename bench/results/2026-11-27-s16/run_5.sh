#!/bin/bash
# GPU call 5 (2026-11-27, sixteenth session): the stage kernels' write passes
# step per-thread pointers (kp_opaque: no per-vector recomputation of the
# row's head and slice offsets).  Lane 0: kp tune over the stage-ranked
# shapes (shapes_c5.txt, against calls 2-4), the odd sweep and the aligned
# long rows side by side.  Lane 1: variants_gpu, ops_gpu, graph_gpu, api,
# memcheck and racecheck over the stage variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 170) build/bin/kp tune --device 0 --families softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu \
    --dtypes bf16 --shapes build/carry/shapes_c5.txt -o $R/c5.tune > $R/tune.log 2>&1
  echo "tune rc=$?"
  el "odd sweep"
  timeout $(left 290) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
    --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
  el "aligned long rows"
  timeout $(left 345) python3 bench/side_by_side.py --shapes-file bench/shapes_aligned_long.txt \
    --ops softmax,rmsnorm,add_rmsnorm,rmsnorm_swiglu --json $R/side_aligned.json 2>&1 \
    | grep -vE "$F" > $R/side_aligned.log; echo "aligned rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in variants_gpu ops_gpu graph_gpu api; do gpu_suite t_$s.log 200 $s; done
  el "sanitizers"
  san memcheck variants_gpu "_stage_" san_memcheck.log 280
  san racecheck variants_gpu "_stage_" san_racecheck.log 345
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -E "default" $R/tune.log
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw)" $R/side_odd.log $R/side_aligned.log | cut -c1-130
lanes_finish
