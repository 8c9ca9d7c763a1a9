#!/bin/bash
# s66 call 12: bench/results/next/pairs_step.patch (RMSNorm+SwiGLU's pairs
# pass, whole and tail steps as one lambda; SASS changed in 28 sm_90a
# variants): float64 over every `_pairs` variant, then main's pack against
# the patched one in turns at the seven long odd shapes, bf16.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el f64; f64 '_pairs|rmsnorm_f32_block_t128_v4_n1_w' 100
el ab
ab rsw rmsnorm_swiglu bf16 8192x16385,4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999 2 190
lanes_finish
