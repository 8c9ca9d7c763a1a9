#!/bin/bash
# s63 call 3: (1) the jit suite (its table-steering test fixed); (2) float64
# over every RMSNorm+SwiGLU `_pairs` variant with W2 (both image words
# unpredicated where the launch bounds leave >= 48 registers); (3) in turns
# with main's pack, bf16, two rounds, at the ranked picks' ranges it
# touches (2048 x 32001: unchanged variant, a control).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el jit; gpu_suite jit.log 25 jit
old_pack || echo "old_pack failed"
el "f64 pairs"
f64 "_pairs|rmsnorm_f32_block_t128_v4_n1" 120
el "ab"
ab rsw rmsnorm_swiglu bf16 4096x18943,4096x21001,2048x32001,2048x39001,1024x50257,512x151937,512x199999 2 470
lanes_finish
