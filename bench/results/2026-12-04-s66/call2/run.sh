#!/bin/bash
# s66 call 2: B prefetched into L2 ahead of the ring (`_pf<P>[g<G>]`,
# cp.async.bulk.prefetch.tensor) at m = 128, n = 11008 / 14336, bf16: every
# 128x88 / 128x112 variant pinned in turns with cuBLAS, two rounds; then ncu
# (free clocks, memory sections) of the 128x88 pf16 twin.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
for r in 1 2; do
  el "pins $r"
  timeout "$(left $((150 * r)))" python3 bench/gemm_bench.py --dtypes bf16 --reps 20 \
    --shapes "128,11008,4096;128,14336,4096" --variants --only 'wg_128x(88|112)_s6_e' \
    --json "$R/pins$r.json" >"$R/pins$r.log" 2>&1
  echo "pins $r rc=$?"; grep -E "^bfloat16|best:| us " "$R/pins$r.log" | cut -c1-130
done
SH="128 11008 4096"
for v in gemm_bf16_wg_128x88_s6_e88_pf16_pl_nk gemm_bf16_wg_128x88_s6_e88_pl_nk; do
  el "ncu $v"
  KP_VARIANT=$v timeout "$(left 420)" ncu --clock-control none --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,sm__cycles_active.avg \
    -k regex:gemm_ -s 4 -c 1 -o "$R/free_$v" python3 bench/ncu_gemm.py $SH >"$R/free_$v.log" 2>&1
  echo "free $v rc=$?"
  ncu -i "$R/free_$v.ncu-rep" --page details --csv >"$R/free_${v}_details.csv" 2>&1
  grep -E '"(Duration|L2 Cache Throughput|DRAM Throughput|dram__bytes_read.sum|lts__t_sectors_srcunit_tex_op_read.sum|lts__t_sector_op_read_hit_rate.pct|sm__cycles_active.avg)"' "$R/free_${v}_details.csv" | awk -F'","' '{print $13": "$15}' | cut -c1-150
  rm -f "$R/free_$v.ncu-rep"
done
lanes_finish
