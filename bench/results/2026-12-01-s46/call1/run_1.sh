#!/bin/bash
# forty-sixth session, call 1 (branch persist-cap + 8-warp `_sk` d128 s2):
# (a) the `_sk` variants against float64, the new w8 one included; memcheck
# over it; d128 decode at batch 1 / 8, pinned w4 s2 / s3 / w8 s2 `_sk`
# beside SDPA (w8: one CTA an SM, its grid capped at the SMs by the
# launcher's new occupancy cap); (b) run_2.sh's ncu stall samples (no_inst)
# on the staged row kernels and the m = 128 GEMM; (c) ncu's full set on
# RMSNorm+SwiGLU's long odd rows (issue 14 part 1's widest gap)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "sk suite"
KP_TEST_ONLY="_sk" CK_RUN_CASE=attention gpu_suite sk.log 100 attention_gpu
grep -E "cases|w8x16" $R/sk.log | head -5 | cut -c1-200
el "decode pinned"
timeout $(left 200) python3 bench/attn_bench.py --decode-only --decode-batches 1,8 --decode-dims 128 \
  --reps 30 --variants "bf16_d128_dec_w(4x16_s2|4x16_s3|8x16_s2)_sk" --table-peers \
  --json $R/dec.json > $R/dec.log 2>&1
echo "dec rc=$?"; grep -E "^bfloat16|dec_w|best at" $R/dec.log | cut -c1-170
el "memcheck w8"
san memcheck attention_gpu w8x16_s2_sk mem_w8.log 250
NS="--clock-control none --section SourceCounters --section WarpStateStats --import-source no"
prof() { # NAME KERNEL-REGEX DEADLINE COMMAND...
  local n=$1 k=$2 dl=$3; shift 3
  el "ncu $n"
  timeout $(left $dl) ncu --target-processes all $NS -k "regex:$k" -s 3 -c 1 -o $R/$n "$@" > $R/$n.log 2>&1
  echo "$n rc=$?"
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n.csv 2>/dev/null
  python3 bench/ncu_stalls.py $R/$n.csv --top 6
  xz -T4 -9 $R/$n.csv
}
prof rmsnorm_199999 "^rmsnorm_bf16_" 300 python3 bench/side_by_side.py --ops rmsnorm --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
prof softmax_199999 "^softmax_bf16_" 350 python3 bench/side_by_side.py --ops softmax --shapes 512x199999 \
  --no-compile --reps 4 --warmup 2
prof gemm_m128 "gemm_f16_wg_" 400 python3 bench/gemm_bench.py --dtypes f16 --reps 4 --shapes "128,11008,4096"
for s in 512x199999 4096x32001; do
  el "ncu full rmsnorm_swiglu $s"
  timeout $(left 560) ncu --target-processes all --set full --import-source no -k "regex:^rmsnorm_swiglu_bf16_" \
    -s 3 -c 1 -o $R/rsw_$s python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes $s \
    --no-compile --reps 4 --warmup 2 > $R/rsw_$s.log 2>&1
  echo "rsw $s rc=$?"
  ncu -i $R/rsw_$s.ncu-rep --page details --csv > $R/rsw_$s.csv 2>/dev/null
  grep -E '"(Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|Achieved Occupancy|Registers Per Thread|Executed Ipc Active|No Eligible|Theoretical Occupancy|L1/TEX Hit Rate|L2 Hit Rate|Executed Instructions|Block Limit Registers|Waves Per SM|Compute \(SM\) Throughput)"' \
    $R/rsw_$s.csv | awk -F'","' '{print $(NF-3)" | "$(NF-1)" "$NF}' | cut -c1-120
done
el end
lanes_finish
