#!/bin/bash
# Call 13 (forty-third session): the refactored bench scripts (gemm_bench's
# pinned() / event_us() shared with gemm_order.py and attn_bench.py) run:
# gemm_bench pinned `_kp`, attn_bench pinned one variant, gemm_order a round;
# then the attention decode rows and d64 1K causal once more, settled.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "gemm_bench pinned"
CUDA_VISIBLE_DEVICES=0 timeout $(left 90) python3 bench/gemm_bench.py --dtypes bf16 --reps 9 --variants --only "_wg_64x64_s12_kp_pl_nk" \
  --shapes "128,4096,4096" > $R/gb.log 2>&1; echo "gb rc=$?"; grep -E "^bfloat16|      gemm_|check\(s\)" $R/gb.log | cut -c1-100
el "gemm_order"
CUDA_VISIBLE_DEVICES=0 timeout $(left 130) python3 bench/gemm_order.py --places 2 --big-reps 4 --after-rounds 2 --reps 5 \
  --variants gemm_bf16_wg_64x64_s12_kp_pl_nk > $R/go.log 2>&1; echo "go rc=$?"; tail -4 $R/go.log | cut -c1-150
el "attn_bench pinned"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/attn_bench.py --dims 64 --seqs 1024 --no-decode --reps 20 \
  --variants "attention_bf16_d64_wg_(128x128|192x128)_s3_pc$" > $R/ab_pin.log 2>&1; echo "ab rc=$?"
grep -E "^bfloat16|attention_bf16" $R/ab_pin.log | cut -c1-160 | head -12
el "attention rows again"
for i in 1 2; do
CUDA_VISIBLE_DEVICES=0 timeout $(left 420) python3 bench/attn_bench.py --decode-dims 128 --decode-batches 1,8 --reps 30 \
  --json $R/attn$i.json > $R/attn$i.log 2>&1
echo "attn rc=$?"; grep -E "^bfloat16 +16 +16/16 +1024 +1024 +64 +True|^bfloat16 .* 32/8 " $R/attn$i.log | cut -c1-160
done
lanes_finish
