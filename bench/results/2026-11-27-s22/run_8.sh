#!/bin/bash
# Twenty-second session, call 8 (one GPU): gemm_bench.time_pair now queues
# each timed call behind the flush and a ~100 us spin, so a peer's host-side
# dispatch is not timed (SDPA's slow rounds: 1.2-8x at small batches).
# The decode sweep (what lands) three rounds, then the GEMM table (bf16,
# f16) against cuBLAS in the same process -- the numbers of this session.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for rd in 1 2 3; do
  el "decode round $rd"
  timeout $(left 200) python3 bench/attn_bench.py --reps 30 --decode-only --decode-dims 128,64 \
    --decode-batches 16,8,4,2,1 --json $R/dec_$rd.json 2>&1 | grep -vE "$F" > $R/dec_$rd.log
done
el "gemm"
timeout $(left 540) python3 bench/gemm_bench.py --json $R/gemm.json > $R/gemm.log 2>&1
el "end"
for f in $R/dec_*.log; do echo "== $f"; grep -E "^bfloat16" $f | cut -c1-125; done
grep -vE "^\s*$" $R/gemm.log | tail -45 | cut -c1-150
lanes_finish
