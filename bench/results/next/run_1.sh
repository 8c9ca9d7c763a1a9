#!/bin/bash
# Next session's first call (written by the twenty-eighth session, whose
# device budget ran out after its call 10): on an H100 if one is lent, else
# an H200.  Copy to build/carry/, carry the packs as build/carry/packs.tar.xz
# (bench/lanes.sh).
# - memcheck and racecheck over the decode clusters as they landed (the
#   st.async push merge, NOTES 62, ran both; the first-row tile addresses of
#   ad4217d ran float64 only): 16-CTA d128 / d64, 12 and 8 CTAs, both dtypes;
# - the decode rows beside SDPA (issue 13), d128 and d64, batches 1, 2, 8;
# - the odd-row sweep side by side (issue 14 part 1; on an H100 the last one
#   is the twenty-fifth session's).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
ONLY="d128_dec_w4x16_s3_c16|d64_dec_w4x16_s3_c16|dec_w4x16_s3_c12|dec_w4x16_s3_c8"
san memcheck attention_gpu "$ONLY" san_memcheck_dec.log 120
san racecheck attention_gpu "$ONLY" san_racecheck_dec.log 260
el "decode"
timeout $(left 360) python3 bench/attn_bench.py --decode-only --decode-dims 128,64 --decode-batches 1,2,8 \
  --reps 30 --json $R/dec.json 2>&1 | grep -vE "$F" > $R/dec.log
grep -E "^bfloat16|decode:" $R/dec.log | cut -c1-190
el "odd sweep"
timeout $(left 580) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
lanes_finish
