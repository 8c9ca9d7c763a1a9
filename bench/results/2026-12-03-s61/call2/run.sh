#!/bin/bash
# s61 call 2 (redo after the lost first try): the `_gx` probe -- persistent
# row kernels whose CTA groups exchange their sums through global memory, no
# hardware cluster, so every SM runs a CTA (clusters of 16 / 8 / 4 fit 7 / 15
# / 30 on an H200).  (0) float64 over every `_gx` variant, memcheck over
# them; (1) pinned in turns against the cluster picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "f64 gx"; f64 "_gx|rmsnorm_f32_block_t128_v4_n1" 200
el "memcheck gx"; san memcheck variants_gpu "_gx|rmsnorm_f32_block_t128_v4_n1" mem.log 300
S=rmsnorm_swiglu_bf16_pers_t512
el "swiglu 200000"
pins sw rmsnorm_swiglu bf16 512x200000,1024x200000 2 470 \
  ${S}_b3_s25_c16_u1 ${S}_b3_s25_c16_u1_gx ${S}_b3_s25_c16_gx ${S}_b2_s33_c12_gx
el "swiglu 40968"
pins sw4 rmsnorm_swiglu bf16 2048x40968,2048x45000 2 520 ${S}_b3_s25_c4 ${S}_b3_s25_c4_gx ${S}_b3_s25_c16_gx
A=add_rmsnorm_bf16_pers_t512
el "add 199999"
pins add add_rmsnorm bf16 512x199999,1024x180001 2 580 ${A}_b3_w1600_c16 ${A}_b3_w1600_c16_gx ${A}_b2_w2100_c12_gx
N=rmsnorm_bf16_pers_t512
el "rms 199999"
pins rms rmsnorm bf16 512x199999,1024x180001 2 640 ${N}_b3_w3200_c8 ${N}_b3_w3200_c8_gx ${N}_b3_w2200_c12_gx
lanes_finish
