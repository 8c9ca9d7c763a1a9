#!/bin/bash
# GPU call 4 of the eighteenth session.  build/packs ("B", what lands): two
# Q buffers only with two consumers; tile k's coordinates in next[k % 2],
# given back by every consumer thread with two Q buffers, by one thread a
# warpgroup (after the epilogue's named barrier) with one.  build/A: two Q
# buffers with two consumers, every thread gives back everywhere (call 3's
# kernels with one Q buffer for three consumers).  build/mid: call 2's
# kernels (1e47ef2), build/old: the session's start (10a72f2).
# (lane 0) attention_gpu, racecheck over the d64 192-row `_ps` and 128-row
# `_pc` (both dtypes), synccheck over every FA3 variant; (lane 1) the
# attention table with old, mid, A and B in turns, twice; memcheck over
# every FA3 variant; the Python GPU tests.
# (As it turned out, A landed, not B: B's three-consumer kernels ran 4-9%
# behind A's and racecheck flagged B's one-thread give-back -- README.md.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 130 attention_gpu
  san racecheck attention_gpu "f16_d64_wg_192x128_s3_ps|f16_d64_wg_128x128_s3_pc" san_racecheck.log 340
  san synccheck attention_gpu "_wg_" san_synccheck.log 460
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for rnd in 1 2; do
    for p in old mid A packs; do
      el "attention table $p $rnd"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left $((rnd == 1 ? 110 : 220))) \
        python3 bench/attn_bench.py --reps 20 --no-decode --json $R/attn_${p}_$rnd.json 2>&1 \
        | grep -vE "$F" > $R/attn_${p}_$rnd.log; echo "attn $p rc=$?"
    done
  done
  san memcheck attention_gpu "_wg_" san_memcheck.log 360
  el "python"
  (cd python && timeout $(left 450) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -hE "Race reported" $R/san_racecheck.log | sort | uniq -c | head
grep -hE "variants left out|: [0-9]+ cases" $R/san_racecheck.log | head
for f in $R/attn_*_[12].log; do echo "== $f"; grep -E "^bfloat16" $f | cut -c40-64; done
lanes_finish
