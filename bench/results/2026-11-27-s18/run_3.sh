#!/bin/bash
# GPU call 3 of the eighteenth session: main + (over call 2's code) Q given
# back by every consumer thread (racecheck's finding in call 2) and two Q
# buffers in the FA3 kernels that loop over tiles (the next tile's Q loads
# while the current one runs).  (lane 0) attention_gpu, racecheck over three
# FA3 variants (two Q buffers and one), synccheck and memcheck over every
# FA3 variant; (lane 1) the attention table with the pack before the
# session (build/old, 10a72f2), after call 2's change (build/mid, 1e47ef2)
# and now, in turns, twice; the rest of the GPU suite; the Python GPU tests.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 130 attention_gpu
  san racecheck attention_gpu "bf16_d64_wg_128x128_s3_pc|bf16_d128_wg_128x128_s2_p$|f16_d128_wg_128x128_s2$" san_racecheck.log 330
  san synccheck attention_gpu "_wg_" san_synccheck.log 430
  san memcheck attention_gpu "_wg_" san_memcheck.log 530
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for rnd in 1 2; do
    for p in old mid packs; do
      el "attention table $p $rnd"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left $((rnd == 1 ? 120 : 240))) \
        python3 bench/attn_bench.py --reps 20 --no-decode --json $R/attn_${p}_$rnd.json 2>&1 \
        | grep -vE "$F" > $R/attn_${p}_$rnd.log; echo "attn $p rc=$?"
    done
  done
  for s in ops_gpu graph_gpu api jit concurrency variants_gpu gemm_gpu regen; do gpu_suite t_$s.log 470 $s; done
  el "python"
  (cd python && timeout $(left 540) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -hE "Race reported" $R/san_racecheck.log | sort | uniq -c | head
for f in $R/attn_*_[12].log; do echo "== $f"; head -1 $f | cut -c1-120; grep -E "^bfloat16" $f | cut -c20-150; done
lanes_finish
