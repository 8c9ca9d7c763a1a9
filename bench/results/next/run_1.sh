#!/bin/bash
# For a later session's first GPU call, on main after the eighteenth session
# (build first: make -j2 all; make KP_SUB=1 build/tests/check_kernpack
# build/bin/kp build/bin/kpbench; carry the packs as bench/lanes.sh says).
# The eighteenth session's gap: racecheck over the landed FA3 kernels ran on
# the 192-row d64 `_ps` only (call 5; call 3 covered bf16 d64 `_pc` of the
# same two-consumer code); every FA3 variant under racecheck needs a lane of
# its own.  (lane 0) racecheck over the bf16 FA3 variants, (lane 1) over the
# f16 ones -- the names' "f16_" also matches "bf16_", so lane 1 takes them
# by the leading underscore -- then the attention table (bench/NOTES.md
# 48: d64 1K causal 0.98x cuDNN is the one shape below 1.0x).  Lane 0 ends
# with the every-variant test's "no f16 attention variant ran" failure
# (its f16 half is lane 1's): not a race.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  san racecheck attention_gpu "bf16_d64_wg_|bf16_d128_wg_" san_racecheck_bf16.log 560
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  san racecheck attention_gpu "_f16_d64_wg_|_f16_d128_wg_" san_racecheck_f16.log 450
  el "attention table"
  timeout $(left 560) python3 bench/attn_bench.py --reps 20 --no-decode --json $R/attn.json 2>&1 \
    | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "Race reported" $R/san_racecheck_*.log | sort | uniq -c | head
grep -hE ": [0-9]+ cases" $R/san_racecheck_*.log | head -40
grep -E "^bfloat16" $R/attn.log | cut -c20-150
lanes_finish
