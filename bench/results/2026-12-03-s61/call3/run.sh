#!/bin/bash
# s61 call 3: the persistent row kernels at 1024 threads a CTA (32 warps an
# SM where 512 ran 16) -- the cluster-count probe (this session's NOTES 97)
# found their time set per SM, not by DRAM.  float64 over them, then pinned
# in turns against the 512-thread picks; then the sanitizers owed over
# RMSNorm's 256 x 6 `_t` block (NOTES 96).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "f64 t1024"; f64 "_pers_t1024|rmsnorm_f32_block_t128_v4_n1" 120
S=rmsnorm_swiglu_bf16_pers
el "swiglu 200000"
pins sw rmsnorm_swiglu bf16 512x200000,1024x200000 2 200 ${S}_t512_b3_s25_c16_u1 ${S}_t1024_b3_s25_c16_u1
el "swiglu 40968"
pins sw4 rmsnorm_swiglu bf16 2048x40968,2048x45000 2 250 ${S}_t512_b3_s25_c4 ${S}_t1024_b3_s25_c4
A=add_rmsnorm_bf16_pers
el "add 199999"
pins add add_rmsnorm bf16 512x199999,1024x180001 2 300 ${A}_t512_b3_w1600_c16 ${A}_t1024_b3_w1600_c16
N=rmsnorm_bf16_pers
el "rms 199999"
pins rms rmsnorm bf16 512x199999,1024x180001 2 350 ${N}_t512_b3_w3200_c8 ${N}_t1024_b3_w3200_c8
T="block_t256_v8_n6_t|rmsnorm_f32_block_t128_v4_n1"
el "memcheck _t"; san memcheck variants_gpu "$T" mem.log 420
el "racecheck _t"; san racecheck variants_gpu "$T" race.log 560
lanes_finish
