#!/bin/bash
# GPU call A (2026-11-26, eighth session): lane 0: GEMM GPU suite (every variant, the
# TMA GEMVs among them), the m <= 16 GEMVs pinned beside cuBLAS, decode c16 / c12 pinned
# beside SDPA, ncu of decode at batch 8 (ours and SDPA's) and paged at batch 1;
# lane 1: memcheck / racecheck / synccheck over the TMA GEMVs, racecheck over c12.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
SH='1,4096,4096;1,11008,4096;1,4096,11008;1,14336,4096;16,4096,4096;16,11008,4096;16,4096,11008;16,14336,4096'
NCU="ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats"
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  el "lane0: gemm suite"; gpu_suite tests_gemm.log 80 gemm_gpu
  el "lane0: gemv"
  timeout 70 python3 bench/gemm_bench.py --variants --only 'gemv_m(8_n16_w8_u4|16_n32_w8_s4|16_n128_s10.*tma)_nk' --dtypes bf16 --reps 20 --shapes "$SH" --json $R/gemv.json > $R/gemv.log 2>&1; echo "gemv rc=$?"
  el "lane0: decode pinned"
  timeout 80 python3 bench/attn_bench.py --decode-only --reps 30 --variants 'bf16_d128_dec_w4x16_s3_c1[26]$' --json $R/decode.json 2>&1 | grep -vE "$F" > $R/decode.log; echo "decode rc=$?"
  el "lane0: ncu decode b8"
  timeout $(left 330) $NCU -k 'regex:attention_|flash|fmha|cudnn|sdpa' python3 bench/ncu_attn.py 8 32 8 1 32768 128 --sdpa > $R/ncu_dec8.log 2>&1; echo "ncu8 rc=$?"
  el "lane0: ncu paged b1"
  timeout $(left 420) $NCU -k 'regex:attention_' python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec1p.log 2>&1; echo "ncu1p rc=$?"
  el "lane0 done"
}
lane1() {
  GPU=1
  el "lane1: sanitizers"
  san memcheck gemm_gpu _tma_ san_tma_memcheck.log 60
  san racecheck gemm_gpu _tma_ san_tma_racecheck.log 110
  san synccheck gemm_gpu _tma_ san_tma_synccheck.log 150
  san racecheck attention_gpu _c12 san_c12_racecheck.log 400
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
grep -E "us|best" $R/decode.log | head -20
for f in $R/ncu_dec8.log $R/ncu_dec1p.log; do
  grep -E '^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Grid Size|Registers Per|Issued Ipc|No Eligible|Warp Cycles Per Issued' $f | cut -c1-140 | head -60
done
lanes_finish
