#!/bin/bash
# s66 call 1: GEMM m = 128, n = 11008, k = 4096 (bf16), the one cell below
# 0.95x cuBLAS.  (1) ncu --set full (base clocks) of the pick, of cuBLAS, and
# of 128x88 s7 sharing A over 2-CTA clusters (new, `_a2`); (2) the same three
# at free clocks, memory sections only; (3) every 128x88 / 96 / 112 variant
# pinned in turns with cuBLAS at n = 11008 and 14336, bf16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "peer kernels + pins"
timeout "$(left 200)" python3 bench/gemm_bench.py --dtypes bf16 --reps 20 --peer-kernels \
  --shapes "128,11008,4096;128,14336,4096" --variants --only 'wg_128x(88|96|112)_' \
  --json "$R/pins.json" >"$R/pins.log" 2>&1
echo "pins rc=$?"; grep -E "^bfloat16|best:|cuBLAS:|kernpack:| us " "$R/pins.log" | cut -c1-160
SH="128 11008 4096"
for who in kp a2 cb; do
  el "ncu $who"
  case $who in
    kp) unset KP_VARIANT; K=regex:gemm_; X= ;;
    a2) export KP_VARIANT=gemm_bf16_wg_128x88_s7_a2_e88_pl_nk; K=regex:gemm_; X= ;;
    cb) unset KP_VARIANT; K=regex:nvjet; X=--cublas ;;
  esac
  timeout "$(left 420)" ncu --set full -k $K -s 4 -c 1 -o "$R/full_$who" \
    python3 bench/ncu_gemm.py $SH $X >"$R/full_$who.log" 2>&1
  echo "full $who rc=$?"
  ncu -i "$R/full_$who.ncu-rep" --page details --csv >"$R/full_${who}_details.csv" 2>&1
  ncu -i "$R/full_$who.ncu-rep" --page raw --csv >"$R/full_${who}_raw.csv" 2>&1
  timeout "$(left 480)" ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    -k $K -s 4 -c 1 -o "$R/free_$who" python3 bench/ncu_gemm.py $SH $X >"$R/free_$who.log" 2>&1
  echo "free $who rc=$?"
  ncu -i "$R/free_$who.ncu-rep" --page details --csv >"$R/free_${who}_details.csv" 2>&1
  grep -E '"(Kernel Name|Duration|L2 Cache Throughput|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|L1/TEX Cache Throughput)"' "$R/free_${who}_details.csv" | awk -F'","' '{print $5" | "$13": "$15}' | cut -c1-150
done
unset KP_VARIANT
rm -f $R/*.ncu-rep.tmp
lanes_finish
