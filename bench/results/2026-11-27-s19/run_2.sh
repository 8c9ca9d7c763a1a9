#!/bin/bash
# Nineteenth session, call 2 (2 GPUs).  `_pc`'s last, partial round dealt
# as single tiles, most keys first (bench/attn_sched_model.py: 0.97 -> 0.99
# mean over max at 1K causal): (lane 0) every `_pc` variant against float64,
# then the 1K rows, the landed pack (A) and this one in turns, twice, then
# racecheck over the f16 d64 FA3 variants as far as time goes; (lane 1)
# racecheck over every bf16 d64 FA3 variant (the eighteenth session's gap;
# `_pc` in its new form).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  export KP_TEST_ONLY=_pc; gpu_suite pc_tests.log 150 attention_gpu; unset KP_TEST_ONLY
  for k in 1 2; do
    for pk in A packs; do
      el "1K rows, $pk, round $k"
      KP_PACK_DIR=$PWD/build/$pk KP_CACHE_DIR=$OUT/cache_$pk timeout $(left 330) \
        python3 bench/attn_bench.py --reps 30 --no-decode --seqs 1024 --json $R/a1k_${pk}_$k.json 2>&1 \
        | grep -vE "$F" > $R/a1k_${pk}_$k.log
      echo "rc=$?"
    done
  done
  san racecheck attention_gpu "_f16_d64_wg_" san_rc_f16_d64.log 565
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  san racecheck attention_gpu "bf16_d64_wg_" san_rc_bf16_d64.log 565
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane*.log
grep -hE "Race reported|Barrier error|ERROR SUMMARY|RACECHECK SUMMARY" $R/san_*.log | sort | uniq -c | head -20
grep -hE ": [0-9]+ cases|variants left out" $R/san_*.log $R/pc_tests.log | cut -c1-150 | head -40
for f in $R/a1k_*.log; do echo "== $f"; grep -E "^bfloat16" $f | cut -c1-150; done
lanes_finish
