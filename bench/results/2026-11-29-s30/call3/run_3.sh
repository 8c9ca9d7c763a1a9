#!/bin/bash
# Thirtieth session, call 3: RMSNorm+SwiGLU's warp-a-row loops (the
# persistent rows of call 2 are gone): float64, memcheck, racecheck over
# every one; kp tune at odd rows of 1001-2001 outputs (two with a register
# cap, new); ncu of the warp rows and the block-a-row loop at 131072 x 1001
# and of the aligned register kernel at 131072 x 1000.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "float64 (f32 has none: its case fails by design)"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=loop_warp_r \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"; grep -E "Checks|:[EF]:" $R/var.log | head -4 | cut -c1-250
san memcheck variants_gpu loop_warp_r mem.log 150
san racecheck variants_gpu loop_warp_r race.log 260
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 98304 1501
rmsnorm_swiglu 65536 2001
S
el "tune"
timeout $(left 360) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/t.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
for s in 131072x1001 98304x1501 65536x2001; do echo "== $s"; grep " $s " $R/t.tune | head -8 | awk '{print $5, $6}'; done
echo "rmsnorm_swiglu 131072 1001" > $R/one.txt
echo "rmsnorm_swiglu 131072 1000" > $R/one_al.txt
for v in rmsnorm_swiglu_bf16_loop_warp_r4_v8_u8_pairs_p rmsnorm_swiglu_bf16_loop_t128_v8_pairs_p rmsnorm_swiglu_bf16_block_t128_v8_n1; do
  el "ncu $v"
  sh=$R/one.txt; case $v in *_n1) sh=$R/one_al.txt ;; esac
  timeout $(left 560) ncu -k "regex:^${v}\$" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section Occupancy --section InstructionStats \
    --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 --reps 3 \
    --shapes $sh -o $R/ncu_tmp.tune -q > $R/ncu_$v.txt 2>&1
  echo "ncu rc=$?"
done
lanes_finish
