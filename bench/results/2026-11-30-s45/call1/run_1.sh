#!/bin/bash
# forty-fifth session, call 1: the split-KV decode's count as one acq_rel
# atomic (no MEMBAR.GPU after it: NOTES 79's held-back merge loads) against
# f90e7b2's fence / atomic / fence (sm_90a_old.kpk), in turns; every `_sk`
# variant against float64; memcheck and racecheck over d128 `_sk`
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
mkdir -p /tmp/oldp && xz -dc build/carry/sm_90a_old.kpk.xz > /tmp/oldp/sm_90a.kpk
el "suite _sk"
KP_TEST_ONLY="_sk" CK_RUN_CASE=attention gpu_suite att_sk.log 110 attention_gpu
for k in 1 2; do
  for P in new old; do
    D=$KP_PACK_DIR; [ $P = old ] && D=/tmp/oldp
    el "$P $k"
    KP_PACK_DIR=$D timeout $(left $((190 + 90 * k))) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 \
      --reps 30 --page 16 --variants "bf16_d128_dec_w4x16_s(2_sk|3_sk|3_c16)" --table-peers \
      --json $R/dec_${P}_$k.json > $R/dec_${P}_$k.log 2>&1
    echo "$P $k rc=$?"; grep -E "^bfloat16|decode:|dec_w" $R/dec_${P}_$k.log | cut -c1-200
  done
done
el "memcheck"
san memcheck attention_gpu d128_dec_w4x16_s2_sk mem_sk.log 470
el "racecheck"
san racecheck attention_gpu d128_dec_w4x16_s2_sk race_sk.log 580
el end
lanes_finish
