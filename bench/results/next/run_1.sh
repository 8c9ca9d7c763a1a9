#!/bin/bash
# GPU call for the thirteenth session (written 2026-11-26, twelfth session,
# not yet run): branch `tmap-cache` merged -- a per-thread cache of encoded
# TMA maps (runtime/launch.c kp_tmap_encode) -- checked and measured:
#   lane 0: attention_gpu (every variant; the map cache sees hits and misses
#           across the cases' shapes), then kpbench's host overhead
#           (twelfth session, call 7: kp_attention +2.31 us, kp_gemm +0.90
#           us over a raw launch, GPU held);
#   lane 1: gemm_gpu, graph_gpu (captures: a cached map is copied into the
#           launch's parameters like a fresh one), api, then the Python GPU
#           tests.
# ~250 s on two H100s (bench/lanes.sh; copy to build/carry/ with the packs).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu"; gpu_suite att.log 200 attention_gpu
  el "lane0: kpbench overhead"
  timeout $(left 260) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 --overhead-n 10000 \
    > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in gemm_gpu graph_gpu api; do gpu_suite t_$s.log 150 $s; done
  el "lane1: python"; (cd python && timeout $(left 260) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -A12 "^host overhead" $R/kpbench.log
lanes_finish
