#!/bin/bash
# Twenty-third session, call 5 (one H100): a persistent d256 kernel for
# causal calls, `_pc` pairs with O stored from the registers and one Q
# buffer (shared memory holds no more; 64-key tiles: 80 spill), against
# the plain 128x80 pick at 1K and 4K causal; every-variant case and the
# three sanitizers over it first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
export KP_TEST_ONLY='d256_wg_128x64_s2_pc' CK_RUN_CASE=attention
gpu_suite t_att_pc.log 80 attention_gpu
export KP_TEST_ONLY='bf16_d256_wg_128x64_s2_pc'
el "memcheck"; san memcheck attention_gpu "$KP_TEST_ONLY" san_mem.log 120
el "synccheck"; san synccheck attention_gpu "$KP_TEST_ONLY" san_sync.log 160
el "racecheck"; san racecheck attention_gpu "$KP_TEST_ONLY" san_race.log 250
unset KP_TEST_ONLY CK_RUN_CASE
grep -E "attention_.*cases|hazard" $R/t_att_pc.log $R/san_*.log | cut -c1-150
el "bench"
timeout $(left 380) python3 bench/attn_bench.py --reps 20 --dims 256 --seqs 1024,4096 --no-decode \
  --variants 'bf16_d256_wg_128x(80_s2$|64_s2_pc)' --table-peers --json $R/pin.json 2>&1 | grep -vE "$F" > $R/pin.log
grep -E "^bfloat16|attention_|best at" $R/pin.log | cut -c1-170
lanes_finish
