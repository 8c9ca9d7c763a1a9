#!/bin/bash
# GPU call 5 of the thirteenth session: call 4's memcheck counted the
# loader's probe for a parameter past the last (cuFuncGetParamInfo answering
# "invalid argument" by design) as API errors; the probe is gone.  memcheck
# over the GLU chunk variants again (the peeling ones among them), the
# suites that launch through the parameter buffer, host overhead.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  san memcheck ops_gpu 'c64_v|c128_v|c256_v' san_memcheck.log 200
  el "lane0: kpbench overhead"
  timeout $(left 260) build/bin/kpbench --op rmsnorm --shape small --dtype bf16 --overhead-n 10000 \
    > $R/kpbench.log 2>&1; echo "kpbench rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in graph_gpu gemm_gpu api; do gpu_suite t_$s.log 200 $s; done
  san memcheck gemm_gpu 'bf16_wg_128x256_s3_e256' san_memcheck_gemm.log 260
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log | head
grep -A16 "^host overhead" $R/kpbench.log | cut -c1-220
lanes_finish
