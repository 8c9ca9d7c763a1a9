#!/bin/bash
# GPU call 4 of the thirteenth session: the ranking after call 3's tune
# (odd-row GLU calls run the peeling chunk kernels `c128_v8_u1_pl`; aligned
# calls keep their picks): the odd-row sweep for swiglu / geglu beside torch
# (eager, compile), the default aligned shape to show it unchanged,
# memcheck over the chunk variants (the new peeling ones among them) at
# every residue, ops_gpu and graph_gpu on the final pack.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: glu odd rows"
  timeout $(left 300) python3 bench/side_by_side.py --ops swiglu,geglu_tanh,geglu_erf \
    --shapes-file bench/shapes_odd.txt --json $R/side_glu_odd.json 2>&1 | grep -vE "$F" > $R/side_glu_odd.log; echo "odd rc=$?"
  el "lane0: glu aligned"
  timeout $(left 380) python3 bench/side_by_side.py --ops swiglu,geglu_tanh,geglu_erf \
    --json $R/side_glu.json 2>&1 | grep -vE "$F" > $R/side_glu.log; echo "aligned rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu graph_gpu; do gpu_suite t_$s.log 200 $s; done
  san memcheck ops_gpu 'c64_v|c128_v|c256_v' san_memcheck.log 400
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/*.log | head
sed -n '/^==== side-by-side/,$p' $R/side_glu_odd.log | head -30 | cut -c1-200
sed -n '/^==== side-by-side/,$p' $R/side_glu.log | head -8 | cut -c1-200
lanes_finish
