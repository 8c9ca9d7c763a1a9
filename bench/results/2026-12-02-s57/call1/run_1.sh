#!/bin/bash
# Next session's first call (written by the fifty-sixth, which had no device
# time; bench/NOTES.md 90-91).  Build (make; the CPU tests), carry the whole
# packs as bench/lanes.sh says, copy this script to build/carry/ and run it.
# - float64 over every persistent row entry on rows past what its grid holds
#   at once (b359cc6's check_variants_gpu cases: `_ws`, RMSNorm+SwiGLU's
#   `warps`, the cluster `_pers`; written after the fifty-fifth session's
#   device time ran out, never yet run on a GPU), f16 and f32 fillers so
#   that every dtype's case runs;
# - the ops and graph (PDL) suites;
# - why odd 131072 x 1001 RMSNorm runs at 87% of copy where aligned 1000
#   runs at 97.8: ncu's DRAM / L2 sector counts and issue figures of the
#   picks at both (bf16), and of softmax at 1001 (94%).
# Then, if time is left: add_end_j.patch (NOTES 91) applied and built,
# float64 over add+RMSNorm's six `_pers`, and the in-turns A/B at item 90's
# shapes (bench/results/2026-12-02-s55/call2/run_2.sh's "ab" block).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64, persistent rows"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="_ws_|_warps_|_pers_|rmsnorm_f32_block_t128_v4_n1|softmax_f32_block_t128_v4_n2" \
  timeout $(left 150) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -16 | cut -c1-300
el "ops, graph"
gpu_suite ops.log 240 ops_gpu
gpu_suite graph.log 300 graph_gpu
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
for c in "rmsnorm 131072x1001" "rmsnorm 131072x1000" "softmax 131072x1001"; do
  set -- $c
  el "ncu $1 $2"
  timeout $(left 500) ncu --target-processes all --clock-control none --metrics $M -k "regex:^$1_bf16_" -s 3 -c 1 \
    --csv python3 bench/side_by_side.py --ops $1 --shapes $2 --no-compile --reps 4 --warmup 2 > $R/ncu_$1_$2.csv 2> $R/ncu_$1_$2.err
  echo "rc=$?"; grep -E '"(gpu__|dram__|lts__|l1tex__|sm__|smsp__)' $R/ncu_$1_$2.csv | awk -F'","' '{print $(NF-4)" "$(NF-2)" "$(NF-1)" "$NF}' | tr -d '"' | cut -c1-140
done
lanes_finish
