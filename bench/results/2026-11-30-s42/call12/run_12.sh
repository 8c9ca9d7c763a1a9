#!/bin/bash
# A next call (written by the forty-second session, NOTES item 77's order
# effect): GEMM 128 x 4096 x 4096 (64x64 s13, pinned) runs 0.82-0.85x cuBLAS
# right after 8192^3 and 1.01-1.03x before it, in one process, while
# cuBLAS holds steady.  Sample the SM / memory clocks, power and temperature
# every 20 ms through the same sequence, twice, to see whether the slow
# stretch follows a clock (ours more clock-bound than cuBLAS's) or not.
# Build, carry, run as bench/results/next/run_1.sh says.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 20 > $R/smi.csv 2>&1 &
SMI=$!
S="128,4096,4096;8192,8192,8192;128,4096,4096;128,4096,4096;128,4096,4096"
for round in 1 2; do
  el "round $round"
  CUDA_VISIBLE_DEVICES=0 timeout $(left $((200 * round))) python3 bench/gemm_bench.py --dtypes bf16 --reps 25 \
    --variants --only "_wg_64x64_s13_pl_nk" --shapes "$S" --json $R/order$round.json 2>&1 |
    grep -vE "$F" > $R/order$round.log
  grep -E "^bfloat16|      gemm_" $R/order$round.log | sed 's/(vs cuBLAS.*//' | cut -c1-90
done
kill $SMI
lanes_finish
