#!/bin/bash
# GPU call for branch `fa3-snake` (written 2026-11-26, tenth session, not yet
# run): the `_ps` variants (persistent FA3 for masked calls, tiles most keys
# first dealt out snake-wise, heads chunked to 16 MB of K and V;
# bench/attn_sched_model.py models 0.97-1.00 of
# even work against `_pc`'s 0.87-0.97). Lane 0: attention_gpu over `_ps`,
# then the causal prefill with `_pc` and `_ps` pinned beside the default
# picks (d128: `_pc`; d64: `_pc` up to 1K, the 192-row plain kernel past);
# lane 1: memcheck, synccheck over `_ps`; ncu of GEMM m = 128 (ours and
# cuBLAS's L2 bytes) and of the decode's stalls at batch 1; racecheck over
# `_pc` and `_ps` (the issue's bar: every variant). Up to ~420 s of wall.
# Copy to build/carry/ with the packs (bench/lanes.sh).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: attention_gpu _ps"; KP_TEST_ONLY=_ps gpu_suite att_ps.log 120 attention_gpu
  el "lane0: causal pinned"
  timeout $(left 290) python3 bench/attn_bench.py --no-decode --reps 20 --variants '_p[cs]$' --json $R/prefill_ps.json 2>&1 | grep -vE "$F" > $R/prefill_ps.log; echo "prefill rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  san memcheck attention_gpu _ps san_ps_memcheck.log 100
  san synccheck attention_gpu _ps san_ps_synccheck.log 170
  # GEMM m = 128 (0.82x cuBLAS at n = k = 4096): L2 traffic of ours and cuBLAS's (NOTES, Open leads)
  CUDA_VISIBLE_DEVICES=1 timeout $(left 230) ncu --clock-control none --metrics lts__t_bytes.sum,dram__bytes_read.sum,sm__cycles_active.avg,gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x \
    -k 'regex:gemm_|nvjet' python3 bench/ncu_gemm.py 128 4096 4096 --cublas > $R/ncu_gemm_m128.log 2>&1; echo "ncu gemm rc=$?"
  # the split-KV decode at batch 1: where its warps stall (NOTES, Open leads)
  CUDA_VISIBLE_DEVICES=1 timeout $(left 300) ncu --clock-control none --section WarpStateStats -k 'regex:attention_' -c 2 \
    python3 bench/ncu_attn.py 1 32 8 1 32768 128 > $R/ncu_dec1_stalls.log 2>&1; echo "ncu decode rc=$?"
  san racecheck attention_gpu '_pc|_ps' san_pcps_racecheck.log 420
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -hE "_ps: [0-9]+ cases|Checks" $R/att_ps.log
grep -E "True|best at" $R/prefill_ps.log | head -40
grep -E "gemm_|nvjet|lts__t_bytes|dram__bytes|duration|grid_size|cluster" $R/ncu_gemm_m128.log | head -30
lanes_finish
