#!/bin/bash
# GPU call 3 of the seventeenth session: where the 128x256 kernel's tensor
# pipe loses cycles at 4096^3 against cuBLAS's -- tensor-pipe activity,
# shared-memory wavefronts and bank conflicts of the wgmma operand reads,
# the shared pipe and TMA unit activity, instructions (ncu, both GPUs one
# kernel each), and the same variants timed side by side once more.
# (Re-typed after the run from the session's log: the carried copy was
# deleted before it was saved; the command lines are as run.)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
M=gpu__time_duration.sum,sm__cycles_active.max,sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.max,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__pipe_tma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_gmma.sum
one() {
  KP_VARIANT=$1 timeout $(left 200) ncu --metrics $M -k 'regex:gemm_|nvjet' --launch-skip 4 -c 2 \
    python3 bench/ncu_gemm.py 4096 4096 4096 --cublas > $R/ncu_$1.log 2>&1; echo "ncu $1 rc=$?"
}
lane0() { export CUDA_VISIBLE_DEVICES=0; one gemm_bf16_wg_128x256_s3_e256_nk; one gemm_bf16_wg_256x128_s4_e128_nk; }
lane1() { export CUDA_VISIBLE_DEVICES=1; one gemm_bf16_wg_128x256_s3_e256_w0_g4_nk; one gemm_bf16_wg_128x256_s3_c2_e256_w0_nk; }
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
for f in $R/ncu_*.log; do echo "== $f"; grep -vE "PROF|^\s*$" $f | grep -E "^\s+[a-z]|gemm_|nvjet" | sed 's/(.*CC 9.0//' | cut -c1-120; done
lanes_finish
