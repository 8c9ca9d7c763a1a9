#!/bin/bash
# Pack format 8 (64 forms, per-form preferred ranks): attention's "+wave"
# form puts the 16-CTA decode clusters first where the tiles fit one wave;
# the split-KV merge's loads 16 at a time.  (lane 0) attention_gpu; the
# sanitizers over `_sk`; the decode rows (the pick, `_sk` and `_c16`
# pinned), two rounds.  (lane 1) the other GPU suites, the Python GPU tests,
# kp tune of two decode shapes (its rows keyed +wave where the op does).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_attention_gpu.log 150 attention_gpu
  san synccheck attention_gpu _sk san_sync.log 190
  san memcheck attention_gpu _sk san_mem.log 230
  san racecheck attention_gpu _sk san_race.log 300
  for k in 1 2; do
    el "decode round $k"
    timeout $(left 520) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
      --decode-batches 8,1,2,4 --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' \
      --json $R/dec_$k.json 2>&1 | grep -vE "$F" > $R/dec_$k.log
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  for s in ops_gpu graph_gpu api jit concurrency variants_gpu gemm_gpu regen tune; do gpu_suite t_$s.log 400 $s; done
  el "python"
  (cd python && timeout $(left 440) python3 tests/run_tests.py > $R/python_gpu.log 2>&1; echo "python rc=$? $(tail -1 $R/python_gpu.log)")
  el "kp tune"
  printf 'attention/full+ws 1 32768 32 128 4\nattention/full+ws 1 32768 256 128 4\nattention/full 1 32768 32 64 4\n' > $R/dec.shapes
  timeout $(left 520) build/bin/kp tune --shapes $R/dec.shapes --dtypes bf16 --reps 10 -q -o $R/dec.tune > $R/kp_tune.log 2>&1
  echo "kp tune rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
cat $R/dec.tune; tail -5 $R/kp_tune.log
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|dec_w4|decode:" $f | cut -c1-170; done
lanes_finish
