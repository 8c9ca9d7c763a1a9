#!/bin/bash
# For the next session (written by the fifty-fifth, bench/NOTES.md 90;
# its device time ran out before it ran): why odd 131072 x 1001 RMSNorm runs at 87% of
# copy where aligned 1000 runs at 97.8 -- ncu's DRAM / L2 sector counts and
# issue figures of the picks at both (bf16), and of softmax at 1001 (94%)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
for c in "rmsnorm 131072x1001" "rmsnorm 131072x1000" "softmax 131072x1001"; do
  set -- $c
  el "ncu $1 $2"
  timeout $(left 300) ncu --target-processes all --clock-control none --metrics $M -k "regex:^$1_bf16_" -s 3 -c 1 \
    --csv python3 bench/side_by_side.py --ops $1 --shapes $2 --no-compile --reps 4 --warmup 2 > $R/ncu_$1_$2.csv 2> $R/ncu_$1_$2.err
  echo "rc=$?"; grep -E '"(gpu__|dram__|lts__|l1tex__|sm__|smsp__)' $R/ncu_$1_$2.csv | awk -F'","' '{print $(NF-4)" "$(NF-2)" "$(NF-1)" "$NF}' | tr -d '"' | cut -c1-140
done
lanes_finish
