#!/bin/bash
# Call 2 (twenty-fifth session): the `_pairs` write pass rewritten (whole
# steps unguarded, opaque byte-permute selectors: ptxas had recomputed the
# weight's residue for every pair).  Every stage variant against float64,
# kp tune over six shapes, then ncu of the stage kernel and its pairs twin
# at 2048 x 50257 (why call 1's first pairs form ran 33% slower there).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
KP_TEST_ONLY="rmsnorm_swiglu_bf16_stage|rmsnorm_swiglu_f16_stage|rmsnorm_swiglu_f32_stage" gpu_suite t_variants.log 90 variants_gpu
grep -E "cases" $R/t_variants.log | head -5
el "tune"
timeout $(left 300) build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 \
  --shapes build/carry/shapes_c2.txt -o $R/c2.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-200
for v in rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c2 rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c2_pairs; do
  el "ncu $v"
  timeout $(left 540) ncu -k "regex:^${v}\$" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section Occupancy --section LaunchStats --section InstructionStats \
    --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,lts__t_requests_srcunit_tex.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__inst_executed.sum \
    build/bin/kp tune --device 0 --families rmsnorm_swiglu --dtypes bf16 --reps 3 \
    --shapes build/carry/shape_one.txt -o $R/ncu_tmp.tune -q > $R/ncu_$v.txt 2>&1
  echo "ncu rc=$?"
done
lanes_finish
