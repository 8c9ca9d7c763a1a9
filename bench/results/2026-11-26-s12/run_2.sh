#!/bin/bash
# GPU call 2 of the twelfth session: where d128 `_p` spends its extra time
# per tile at 1K against 16K -- SM-to-SM imbalance (sm__cycles_active
# min/avg/max), pipe utilisation, and per-SASS-instruction stall samples
# (SourceCounters, printed as CSV) at both lengths; the same for the d64 1K
# causal pick (`_ps`, 128-row).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
ncu --query-metrics 2>/dev/null | grep -oE "^(sm__cycles_active|sm__pipe_tensor_op_gmma_cycles_active|sm__inst_executed_pipe_tensor_op_gmma)[a-z_]*" | sort -u > $R/metrics.txt
M=gpu__time_duration.sum
grep -qx sm__cycles_active $R/metrics.txt && M=$M,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max
grep -qx sm__pipe_tensor_op_gmma_cycles_active $R/metrics.txt && M=$M,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.min.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.max.pct_of_peak_sustained_elapsed
lane0() {
  GPU=0; export CUDA_VISIBLE_DEVICES=0
  for s in 1024 16384; do
    b=$((16384 / s))
    el "ncu $s"
    timeout $(left 200) ncu --clock-control none --metrics $M --section ComputeWorkloadAnalysis \
      -k 'regex:attention_|cudnn' -c 4 python3 bench/ncu_attn.py $b 16 16 $s $s 128 --sdpa \
      > $R/ncu_bal_$s.log 2>&1; echo "ncu bal $s rc=$?"
    timeout $(left 300) ncu --clock-control none --section SourceCounters --section WarpStateStats \
      -k 'regex:attention_' --launch-skip 2 -c 1 -o $R/src_$s python3 bench/ncu_attn.py $b 16 16 $s $s 128 \
      > $R/ncu_src_$s.log 2>&1; echo "ncu src $s rc=$?"
    ncu -i $R/src_$s.ncu-rep --page source --csv --print-source sass > $R/sass_$s.csv 2>&1; echo "print rc=$?"
    ncu -i $R/src_$s.ncu-rep --page details > $R/details_$s.txt 2>&1
    rm -f $R/src_$s.ncu-rep
  done
  el "lane0 done"
}
lane1() {
  GPU=1; export CUDA_VISIBLE_DEVICES=1
  el "ncu d64 causal 1K"
  timeout $(left 200) ncu --clock-control none --metrics $M --section ComputeWorkloadAnalysis \
    -k 'regex:attention_|cudnn' -c 4 python3 bench/ncu_attn.py 16 16 16 1024 1024 64 --causal --sdpa \
    > $R/ncu_bal_d64c.log 2>&1; echo "ncu bal d64c rc=$?"
  timeout $(left 300) ncu --clock-control none --metrics $M --section ComputeWorkloadAnalysis \
    -k 'regex:attention_|cudnn' -c 4 python3 bench/ncu_attn.py 16 16 16 1024 1024 128 --causal --sdpa \
    > $R/ncu_bal_d128c.log 2>&1; echo "ncu bal d128c rc=$?"
  el "lane1 done"
}
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log $R/metrics.txt
grep -hE "^  [a-z_]|sm__|duration|Executed Ipc|Issue Slots|SM Busy" $R/ncu_bal_*.log | cut -c1-140
lanes_finish
