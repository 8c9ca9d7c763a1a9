#!/bin/bash
# GPU call 1 of the twelfth session (2026-11-26): deeper K/V rings for the
# FA3 kernels (bf16 experiment variants: d128 s3 `_p` / `_pc`, d128 64-key
# tiles s5 `_p`, d64 s6 192-row `_p` and 128-row `_ps`), pinned beside the
# picks and cuDNN in one run; their correctness (attention_gpu narrowed to
# them); ncu warp states of d128 `_p` at 1K against 16K; GEMM m = 128 alone
# and in the table with clocks sampled (bench/results/next/run_1.sh (c)).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ONLY='_s3_p|_s5_p|_s6_p|f16_d128_wg_128x128_s2_p'
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: pinned"
  timeout $(left 330) python3 bench/attn_bench.py --reps 20 --no-decode \
    --variants 'd128_wg_128x128_s[23]_pc?$|d128_wg_128x64_s5_p$|d64_wg_192x128_s[36]_p$|d64_wg_128x128_s[36]_ps$' \
    --table-peers --json $R/attn.json 2>&1 | grep -vE "$F" > $R/attn.log; echo "attn rc=$?"
  el "lane0: ncu warp states"
  for s in 1024 16384; do
    b=$((16384 / s))
    timeout $(left 450) ncu --clock-control none --section SpeedOfLight --section WarpStateStats \
      --section SchedulerStats --section MemoryWorkloadAnalysis -k 'regex:attention_|cudnn' -c 4 \
      python3 bench/ncu_attn.py $b 16 16 $s $s 128 --sdpa > $R/ncu_ws_$s.log 2>&1; echo "ncu $s rc=$?"
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "lane1: attention_gpu on the new variants"
  KP_TEST_ONLY="$ONLY" gpu_suite att.log 200 attention_gpu
  nvidia-smi -i 1 --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 200 > $R/smi1.csv 2>&1 &
  SMI=$!
  for i in 1 2; do
    el "m128 alone $i"
    timeout $(left 400) python3 bench/gemm_bench.py --dtypes bf16,f16 --reps 50 --variants \
      --only 'wg_64x64_s13_nk' --shapes '128,4096,4096' 2>&1 | grep -vE "$F" > $R/m128_alone_$i.log
    el "table $i"
    timeout $(left 470) python3 bench/gemm_bench.py --variants --only 'wg_64x64_s13_nk' \
      2>&1 | grep -vE "$F" > $R/table_$i.log
  done
  kill $SMI
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -E "True|False" $R/attn.log | head -14
grep -E "^  attention" $R/attn.log
for f in $R/m128_alone_*.log $R/table_*.log; do echo "== $f"; grep -E "^(bfloat16|float16) +128 +4096 +4096|wg_64x64" $f | head -6; done
lanes_finish
