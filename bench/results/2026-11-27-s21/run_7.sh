#!/bin/bash
# What lands (the split-KV decode's aligned shares; the test's grids for 2
# and 3 SMs with the kept workspace made anew).  (lane 0) attention_gpu,
# every variant; synccheck and memcheck over `_sk`; two decode rounds.
# (lane 1) racecheck over `_sk`; ops_gpu, graph_gpu; two decode rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
dec() {
  for k in 1 2; do
    el "decode round $k"
    timeout $(left 290) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' \
      --json $R/dec_g${GPU}_$k.json 2>&1 | grep -vE "$F" > $R/dec_g${GPU}_$k.log
  done
}
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 170 attention_gpu
  san synccheck attention_gpu _sk san_sync.log 210
  san memcheck attention_gpu _sk san_mem.log 250
  dec
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  san racecheck attention_gpu _sk san_race.log 200
  for s in ops_gpu graph_gpu; do gpu_suite t_$s.log 240 $s; done
  dec
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head | cut -c1-300
grep -h "TIME" $R/t_attention_gpu.log
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-112; done
lanes_finish
