#!/bin/bash
# Nineteenth session, call 3 (2 GPUs): the code as it lands (`_pc`'s last
# round as single tiles).  (lane 0) attention_gpu; racecheck over the d128
# `_pc` in its new form (call 1 ran them before it); synccheck and memcheck
# over every FA3 variant.  (lane 1) the attention table, the landed pack (A)
# and this one in turns, twice; seq 512 and 32 heads at 1K (other unit
# counts for `_pc`), both packs in turns; the rest of the GPU suite; the
# Python GPU tests.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 130 attention_gpu
  san racecheck attention_gpu "d128_wg_128x128_s2_pc" san_rc_pc_d128.log 250
  san synccheck attention_gpu "_wg_" san_synccheck.log 400
  san memcheck attention_gpu "_wg_" san_memcheck.log 550
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for rnd in 1 2; do
    for p in A packs; do
      el "attention table $p $rnd"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left $((rnd == 1 ? 100 : 200))) \
        python3 bench/attn_bench.py --reps 20 --json $R/attn_${p}_$rnd.json 2>&1 \
        | grep -vE "$F" > $R/attn_${p}_$rnd.log; echo "attn $p rc=$?"
    done
  done
  for rnd in 1 2; do
    for p in A packs; do
      el "seq 512, 32 heads at 1K: $p $rnd"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left 300) \
        python3 bench/attn_bench.py --reps 20 --no-decode --seqs 512 --json $R/s512_${p}_$rnd.json 2>&1 \
        | grep -vE "$F" > $R/s512_${p}_$rnd.log
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left 300) \
        python3 bench/attn_bench.py --reps 20 --no-decode --seqs 1024 --heads 32 --json $R/h32_${p}_$rnd.json 2>&1 \
        | grep -vE "$F" > $R/h32_${p}_$rnd.log
    done
  done
  for s in ops_gpu graph_gpu api jit concurrency variants_gpu gemm_gpu regen; do gpu_suite t_$s.log 520 $s; done
  el "python"
  (cd python && timeout $(left 560) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -hE "Race reported" $R/san_*.log | sort | uniq -c | head
for f in $R/attn_*_[12].log $R/s512_*.log $R/h32_*.log; do echo "== $f"; grep -E "^bfloat16" $f | cut -c20-150; done
lanes_finish
