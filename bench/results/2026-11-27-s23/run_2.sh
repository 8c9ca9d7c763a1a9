#!/bin/bash
# Twenty-third session, call 2 (one H100): head dims 96 and 256 (FA2 at
# both, FA3 at d256 with 80- and 64-key tiles, the split-KV decode at both;
# 2a31c0c-ish, this session's first commit of them).  attention_gpu whole
# (every variant against float64, the selection), memcheck and synccheck
# over the new variants; then side by side with SDPA: prefill at 1K, 4K,
# 16K (batch x seq = 16K, 16 heads), causal and not, decode at batch 8 and
# 1 (32 / 8 heads, Lk 32K), and the d256 prefill kernels pinned.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite t_attention_gpu.log 200 attention_gpu
export KP_TEST_ONLY='_d96_|_d256_' CK_RUN_CASE=attention
el "memcheck"; san memcheck attention_gpu '_d96_|_d256_' san_mem.log 290
el "synccheck"; san synccheck attention_gpu '_d96_|_d256_' san_sync.log 380
unset KP_TEST_ONLY CK_RUN_CASE
el "bench"
timeout $(left 500) python3 bench/attn_bench.py --reps 20 --dims 256,96 --seqs 1024,4096,16384 \
  --decode-dims 256,96 --decode-batches 8,1 --json $R/bench.json 2>&1 | grep -vE "$F" > $R/bench.log
el "pinned d256"
timeout $(left 585) python3 bench/attn_bench.py --reps 10 --dims 256 --seqs 1024,4096 --no-decode \
  --variants 'bf16_d256_(wg|128x32)' --table-peers --json $R/pin.json 2>&1 | grep -vE "$F" > $R/pin.log
grep -E "attention_|Checks" $R/san_*.log | grep -E "cases|Checks" | cut -c1-150
grep -E "^bfloat16|decode:|attention_|best at" $R/bench.log $R/pin.log | cut -c1-190
lanes_finish
