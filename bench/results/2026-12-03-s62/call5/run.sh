#!/bin/bash
# s62 call 5: RMSNorm+SwiGLU's staged pairs write pass with both image words
# loaded whatever the selector (the pair loop 365 -> 318 SASS instructions,
# NOTES 102): in turns with main's pack, bf16, two rounds, then float64
# over every `_pairs` variant.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
old_pack || echo "old_pack failed"
el "ab"
ab rsw rmsnorm_swiglu bf16 4096x18943,2048x32001,1024x50257 2 110
el "f64 pairs"
f64 "_pairs|rmsnorm_f32_block_t128_v4_n1" 175
lanes_finish
