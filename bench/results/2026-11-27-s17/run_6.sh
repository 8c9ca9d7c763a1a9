#!/bin/bash
# GPU call 6 of the seventeenth session: stream-K.  (lane 0) the GEMM
# suite (every variant; test_stream_k: the 128x256 pick with a poisoned
# workspace where the tiles leave the last wave part-empty, flags back to
# zero, slots written), then compute-sanitizer racecheck and memcheck
# over the suite's `_w0` variants and its stream-K test (the device time
# left after a first try that met a stale family signature: no synccheck);
# (lane 1) the large GEMM shapes side by side with cuBLAS without, then
# with a workspace (two processes, bf16 and f16).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  gpu_suite t_gemm_gpu.log 110 gemm_gpu
  grep -E "stream_k|SKIP" $R/t_gemm_gpu.log | head -5
  san racecheck gemm_gpu "_w0" san_racecheck.log 175
  san memcheck gemm_gpu "_w0" san_memcheck.log 240
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  S="4096,4096,4096;4096,4096,4096;8192,8192,8192;4096,11008,4096;4096,4096,11008;4096,14336,4096;2048,4096,4096"
  for ws in "" --workspace; do
    el "gemm $ws"
    timeout $(left 235) python3 bench/gemm_bench.py --shapes "$S" --dtypes bf16,f16 --reps 30 $ws 2>&1 \
      | grep -vE "$F" > $R/gemm${ws:+_ws}.log; echo "gemm $ws rc=$?"
  done
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE ":[EF]:" $R/t_*.log $R/san*.log | head
grep -hE "^(bfloat16|float16)|failed|workspace of" $R/gemm.log $R/gemm_ws.log | cut -c1-110
lanes_finish
