#!/bin/bash
# s64 call 2: the staged kernels' prologue (NOTES 105: copies issued before
# the edges' loads, the cluster barrier's wait moved to the first exchange).
# (1) float64 over every `_stage_` variant; (2) racecheck + synccheck over two
# RMSNorm+SwiGLU stage variants; (3) in turns with main's pack, bf16, the odd
# sweep's cells that run a stage variant, two rounds.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el f64; f64 '_stage_|rmsnorm_f32_block_t128_v4_n1' 200
grep -E "cases" "$R/var.log" | head -4 | cut -c1-200
el san
san racecheck variants_gpu 'rmsnorm_swiglu_bf16_stage_t256_v8_u2_s20_c2_pairs|rmsnorm_swiglu_bf16_stage_t256_v8_u1_s16_pairs|rmsnorm_f32_block_t128_v4_n1' race.log 260
san synccheck variants_gpu 'rmsnorm_swiglu_bf16_stage_t256_v8_u2_s20_c2_pairs|softmax_bf16_stage_t128_v8_u4_s25_c4|rmsnorm_f32_block_t128_v4_n1' sync.log 320
el ab
ab rsw rmsnorm_swiglu bf16 4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999 2 560
ab sm softmax bf16 65536x3001,16384x4097,8192x11007,4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999 1 660
ab rms rmsnorm,add_rmsnorm bf16 65536x3001,16384x4097,8192x11007,4096x18943,4096x32001,2048x50257,1024x128257,512x151937 1 760
lanes_finish
