#!/bin/bash
# What lands: the split-KV decode's shares aligned over the KV heads.
# (lane 0) attention_gpu (every variant, the new 528- and 50-tile decode
# cases); memcheck and synccheck over `_sk`; the decode rows (the pick,
# `_sk` and `_c16` pinned), batch 16 .. 1, two rounds.  (lane 1) the other
# GPU suites, the Python GPU tests, then two more decode rounds.
# (Asked for nvidia-h200-x2; came as two H100s.  The 528- and 50-tile cases
# ran for every variant and took attention_gpu past 200 s: replaced before
# call 7 by the split-KV grids for 2 and 3 SMs.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
dec() {
  for k in 1 2; do
    el "decode round $k"
    timeout $(left 540) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' \
      --json $R/dec_g${GPU}_$k.json 2>&1 | grep -vE "$F" > $R/dec_g${GPU}_$k.log
  done
}
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 200 attention_gpu
  san synccheck attention_gpu _sk san_sync.log 260
  san memcheck attention_gpu _sk san_mem.log 320
  dec
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu graph_gpu api jit concurrency variants_gpu gemm_gpu regen tune; do gpu_suite t_$s.log 400 $s; done
  el "python"
  (cd python && timeout $(left 440) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  dec
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-112; done
lanes_finish
