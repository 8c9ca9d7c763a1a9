#!/bin/bash
# 41st session call 6: B bands with the CTAs out of step (k start rotated);
# ncu: the GEMM at 128 x 14336 x 4096 (ours and cuBLAS's: DRAM bytes and
# rate), the paged decode's instructions after the offsets change.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "bands"
nvcc -O3 -arch=sm_90a -o $R/rc bench/read_ceiling.cu -lcuda 2>/dev/null && timeout $(left 200) $R/rc 1024 > $R/read_ceiling.log 2>&1
sed -n '/B bands/,$p' $R/read_ceiling.log; rm -f $R/rc
el "ncu gemm"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg
timeout $(left 300) ncu --metrics $M -k regex:'gemm_|nvjet' -c 10 python3 bench/ncu_gemm.py 128 14336 4096 --cublas > $R/ncu_gemm.log 2>&1
echo "ncu rc=$?"; grep -E "^  [a-z]|duration|bytes|throughput|hmma|cycles" $R/ncu_gemm.log | tail -14 | cut -c1-150
el "ncu decode"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_active.avg
KP_VARIANT=attention_bf16_d128_dec_w4x16_s3_c16 timeout $(left 400) ncu --metrics $M -k regex:attention_ \
  python3 bench/ncu_attn.py 1 32 8 1 32768 128 --paged 16 > $R/ncu_dec.log 2>&1
echo "ncu rc=$?"; grep -E "duration|inst_executed|cycles_active" $R/ncu_dec.log | cut -c1-150
lanes_finish
