#!/bin/bash
# Twenty-third session, call 3 (one H100): FA3 at d96 added (two panels,
# the second half zeros), the test binary rebuilt (call 2's was the
# twenty-second session's: its workspace size left d256's split-KV decode
# out).  attention_gpu whole; memcheck and synccheck over every d96 / d256
# variant; the prefill side by side at d96 / d256; then racecheck over the
# bf16 d96 / d256 variants (f16's shared-memory traffic is the same code).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_attention_gpu.log 200 attention_gpu
export KP_TEST_ONLY='_d96_|_d256_' CK_RUN_CASE=attention
el "memcheck"; san memcheck attention_gpu '_d96_|_d256_' san_mem.log 300
el "synccheck"; san synccheck attention_gpu '_d96_|_d256_' san_sync.log 400
unset KP_TEST_ONLY CK_RUN_CASE
el "bench"
timeout $(left 440) python3 bench/attn_bench.py --reps 20 --dims 96,256 --seqs 1024,4096,16384 \
  --no-decode --json $R/bench.json 2>&1 | grep -vE "$F" > $R/bench.log
grep -E "^bfloat16" $R/bench.log | cut -c1-150
export KP_TEST_ONLY='bf16_d96_|bf16_d256_' CK_RUN_CASE=attention
el "racecheck"; san racecheck attention_gpu 'bf16_d96_|bf16_d256_' san_race.log 590
unset KP_TEST_ONLY CK_RUN_CASE
grep -E "attention_.*cases|Checks" $R/san_*.log $R/t_attention_gpu.log | grep -E "d96|d256|Checks" | cut -c1-150
lanes_finish
