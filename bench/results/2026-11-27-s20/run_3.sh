#!/bin/bash
# Split-KV decode's count and merge (one thread's acq_rel fences; the merge's
# loads in batches of 8): the decode rows, this pack against A (the landed
# one) in turns, `_sk` pinned; the attention GPU suite's decode cases and
# synccheck / memcheck / racecheck over the `_sk` variants.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
mkdir -p build/A && xz -dc build/carry/A.kpk.xz > build/A/sm_90a.kpk
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  for k in 1 2; do
    for p in packs A; do
      el "decode $p round $k"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left 420) python3 bench/attn_bench.py \
        --reps 30 --decode-only --decode-dims 128,64 --decode-batches 8,1,2,4 \
        --variants 'dec_w4x16_s3_sk$' --json $R/dec_${p}_$k.json 2>&1 | grep -vE "$F" > $R/dec_${p}_$k.log
    done
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "suite"; export KP_TEST_ONLY=_dec_; gpu_suite suite_dec.log 150 attention_gpu; unset KP_TEST_ONLY
  el "synccheck"; san synccheck attention_gpu _sk san_sync.log 260
  el "memcheck"; san memcheck attention_gpu _sk san_mem.log 370
  el "racecheck"; san racecheck attention_gpu d128_dec_w4x16_s3_sk san_race.log 540
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|dec_w4|decode:" $f | cut -c1-200; done
lanes_finish
