#!/bin/bash
# Twenty-second session, call 15 (asked for an H200): what lands -- the
# decode sweep with `_s2_sk` / `_s3_sk` / `_c16` pinned (batch 16 .. 1,
# d128), two rounds; then batch 1 d128 on eight allocations (c16_alloc.py's
# comparison of the pick, `_s2_sk` and cuDNN: c16r_alloc.py without the
# twin) -- does an H200 have the H100's allocation modes, and which
# split-KV depth suits it?
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for rd in 1 2; do
  el "round $rd"
  timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128 \
    --decode-batches 16,8,4,2,1 --variants 'dec_w4x16_s[23]_sk$|dec_w4x16_s3_c16$' \
    --json $R/dec_$rd.json 2>&1 | grep -vE "$F" > $R/dec_$rd.log
done
el "alloc"
timeout $(left 400) python3 build/carry/b1_alloc.py 2>&1 | grep -vE "$F" | tee $R/b1_alloc.log
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16|  attention" $f | cut -c1-110; done
lanes_finish
