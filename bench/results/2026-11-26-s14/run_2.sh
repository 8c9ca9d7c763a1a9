#!/bin/bash
# GPU call 2 (2026-11-26, fourteenth session): GLU calls over contiguous odd
# rows run as fewer aligned rows (ops.c glu_flatten, first form: k rows as
# one of k * cols); softmax loops with U vectors a step (`_u`);
# rmsnorm_swiglu's pass 2 on a 4-byte grid (`_pairs_p`).  Lane 0: kp tune
# over long odd softmax rows and every odd rmsnorm_swiglu shape (every
# variant timed), then the odd sweep side by side for the GLUs
# (torch.compile in).  Lane 1: the GPU suites that cover the changes,
# memcheck over the new variants.  (shapes_c2.txt: beside this script.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "tune"
  timeout $(left 260) build/bin/kp tune --device 0 --families softmax,rmsnorm_swiglu --dtypes bf16 \
    --shapes build/carry/shapes_c2.txt -o $R/c2.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "side glu"
  timeout $(left 520) python3 bench/side_by_side.py --ops swiglu,geglu_tanh,geglu_erf \
    --shapes-file bench/shapes_odd.txt --reps 50 --json $R/side_glu.json 2>&1 | grep -vE "$F" > $R/side_glu.log; echo "side rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu variants_gpu graph_gpu api; do gpu_suite t_$s.log 300 $s; done
  el "memcheck"
  san memcheck variants_gpu "_u|_pairs" san_memcheck.log 420
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
P0=$!
lane1 > $R/lane1.log 2>&1 &
P1=$!
wait $P0 $P1
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -vE "^#|^[a-z_]+ =" $R/c2.tune | awk '{k=$1" "$2" "$3; if (!(k in s)) {s[k]=1; print "BEST", $0}}' | head -40
grep -E "^(swiglu|geglu)" $R/side_glu.log | head -40
lanes_finish
