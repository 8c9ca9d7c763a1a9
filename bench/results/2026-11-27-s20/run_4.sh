#!/bin/bash
# (lane 0) the split-KV decode with its merge's loads 16 at a time: the
# decode rows against A in turns, `_sk` and `_c16` pinned; (lane 1) a per-CTA
# globaltimer trace of branch gemm-streamk's stream-K (wt.tar.xz: that
# branch's library and sm_90a pack with trace stores, trace_gemm.py).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
mkdir -p build/A && xz -dc build/carry/A.kpk.xz > build/A/sm_90a.kpk
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  for k in 1 2; do
    for p in packs A; do
      el "decode $p round $k"
      KP_PACK_DIR=$PWD/build/$p KP_CACHE_DIR=$OUT/cache_$p timeout $(left 420) python3 bench/attn_bench.py \
        --reps 30 --decode-only --decode-dims 128,64 --decode-batches 8,1,2 \
        --variants 'dec_w4x16_s3_sk$|dec_w4x16_s3_c16$' --json $R/dec_${p}_$k.json 2>&1 | grep -vE "$F" > $R/dec_${p}_$k.log
    done
  done
  el "lane0 done"
}
lane1() {
  export CUDA_VISIBLE_DEVICES=1
  mkdir -p /tmp/wtx && tar -C /tmp/wtx -xJf build/carry/wt.tar.xz
  el "gemm trace"
  (cd /tmp/wtx/wt && KP_PACK_DIR=$PWD/build/packs KP_CACHE_DIR=$OUT/cache_wt timeout $(left 300) python3 trace_gemm.py) > $R/trace_gemm.log 2>&1
  echo "trace rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
cat $R/trace_gemm.log | grep -v Warn | tail -60
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|dec_w4" $f | cut -c1-150; done
lanes_finish
