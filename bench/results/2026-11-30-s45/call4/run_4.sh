#!/bin/bash
# forty-fifth session, call 4: the split-KV decode's merge with one offset a
# partial (smaller code) and the dry pass (new) against f90e7b2 (old), in
# turns; every `_sk` variant against float64; a per-CTA trace of the tail
# (sm_90a_trace.kpk: the new code with timer reads)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p /tmp/oldp /tmp/trp && xz -dc build/carry/sm_90a_old.kpk.xz > /tmp/oldp/sm_90a.kpk
xz -dc build/carry/sm_90a_trace.kpk.xz > /tmp/trp/sm_90a.kpk
el "suite _sk"
KP_TEST_ONLY="_sk" CK_RUN_CASE=attention gpu_suite att_sk.log 110 attention_gpu
for k in 1 2; do
  for P in new old; do
    D=$KP_PACK_DIR; [ $P = old ] && D=/tmp/oldp
    el "$P $k"
    KP_PACK_DIR=$D timeout $(left $((150 + 45 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 \
      --reps 30 --page 16 --variants "bf16_d128_dec_w4x16_s(2_sk|3_sk|3_c16)" --table-peers \
      --json $R/dec_${P}_$k.json > $R/dec_${P}_$k.log 2>&1
    echo "$P $k rc=$?"; grep -E "^bfloat16|dec_w" $R/dec_${P}_$k.log | cut -c1-150
  done
done
el "trace"
KP_PACK_DIR=/tmp/trp timeout $(left 330) python3 build/carry/clock_sk2.py attention_bf16_d128_dec_w4x16_s3_sk > $R/trace.log 2>&1
echo "trace rc=$?"; cat $R/trace.log | grep -v Warn | head -60
el end
lanes_finish
