#!/bin/bash
# GPU call 3 of the thirteenth session: the map cache made 4-way (four maps
# of one attention call never evict each other), GLU chunk variants that peel
# (`_pl`: odd row lengths, torch.compile's flat shape), launches with one
# parameter buffer.  kp tune over the odd-row GLU shapes (every applicable
# variant, the new `_pl` ones among them), host overhead, and the GPU suites
# that cover the changes (ops_gpu: every GLU variant at every residue).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: kpbench overhead"
  timeout $(left 60) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 --overhead-n 10000 \
    > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
  el "lane0: kp tune glu odd"
  timeout $(left 200) build/bin/kp tune --device 0 --families swiglu,geglu --dtypes bf16 \
    --shapes bench/shapes_odd.txt -o $R/glu_odd.tune > $R/tune.log 2>&1; echo "tune rc=$?"
  el "lane0: attention_gpu"; gpu_suite att.log 330 attention_gpu
  el "lane0: python"; (cd python && timeout $(left 420) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu graph_gpu gemm_gpu api variants_gpu jit concurrency regen; do gpu_suite t_$s.log 420 $s; done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/*.log | head
grep -A16 "^host overhead" $R/kpbench.log | cut -c1-220
grep -vE "^#|^[a-z]+ =" $R/glu_odd.tune | awk '{k=$1" "$2" "$3" "$7; if (!(k in s)) {s[k]=1; print "BEST", $0} print}' | head -150
tail -5 $R/tune.log
lanes_finish
