#!/bin/bash
# GPU call B (2026-11-26, eighth session): the TMA GEMV with conflict-free shared
# loads (and A's second m-tile skipped for m <= 8); decode c16 / c8 / c4 pinned beside
# SDPA, ncu of c4 (one wave at batch 8); lane 1: GEMM and decode checks + sanitizers.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
SH='1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096'
NCU="ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemv"
  timeout 70 python3 bench/gemm_bench.py --variants --only 'gemv_m(8_n16_w8_u4|16_n32_w8_s4|16_n128_s10.*tma)_nk' --dtypes bf16 --reps 20 --shapes "$SH" --json $R/gemv.json > $R/gemv.log 2>&1; echo "gemv rc=$?"
  el "lane0: decode pinned"
  timeout 90 python3 bench/attn_bench.py --decode-only --reps 30 --variants 'bf16_d128_dec_w4x16_s3_c(16|8|4)$' --json $R/decode.json 2>&1 | grep -vE "$F" > $R/decode.log; echo "decode rc=$?"
  el "lane0: ncu decode b8 c4 / c16"
  KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c4 timeout 60 $NCU -k 'regex:attention_' -c 1 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_dec8_c4.log 2>&1; echo "ncu c4 rc=$?"
  timeout 60 $NCU -k 'regex:attention_' -c 1 python3 bench/ncu_attn.py 8 32 8 1 32768 128 > $R/ncu_dec8_c16.log 2>&1; echo "ncu c16 rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  el "lane1: checks"
  gpu_suite tests_tma.log 60 gemm_gpu
  KP_TEST_ONLY=_c4 gpu_suite tests_c4.log 90 attention_gpu
  san racecheck gemm_gpu _tma_ san_tma_racecheck.log 150
  san memcheck gemm_gpu _tma_ san_tma_memcheck.log 200
  san racecheck attention_gpu _c4 san_c4_racecheck.log 330
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
python3 - $R/gemv.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for v in d["variants"]:
    print(v["m"], v["n"], v["k"], v["variant"].replace("gemm_bf16_gemv_", ""), f'{v["us"]:.1f}', f'{v["cublas_us"]:.1f}')
PY
grep -E " us|best" $R/decode.log | head -20
for f in $R/ncu_dec8_c4.log $R/ncu_dec8_c16.log; do
  grep -E '^  [a-zA-Z_].*\(|Duration|DRAM Throughput|L2 Cache Throughput|SM Active Cycles|Elapsed Cycles|Achieved Active|Max Active Clusters|Issued Warp|Executed Instructions  ' $f | cut -c1-120 | head -20
done
lanes_finish
