#!/bin/bash
# s65 call 2: RMSNorm+SwiGLU's `_x2` (two rows a CTA 8 apart sharing w's
# words, rmsnorm_swiglu_stage2).  (1) float64 over every `_x2` variant
# (both 16-bit dtypes; 37-row cases cover the paired groups and the last
# group's neighbours); (2) bf16, in turns, each long odd shape with its pick
# (default) and the `_x2` variants that take it, two rounds; (3) main's
# pack against this one, the picks (the pairs pass's header changed).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el f64; f64 '_pairs_x2|rmsnorm_f32_block_t128_v4_n1_w' 120
V=rmsnorm_swiglu_bf16_stage_t256_v8_u2
declare -A L
L[8192x16385]="s9_c4 s10_c4 s17_c2 s20_c2 s16_c4 s8_c8 s13_c8"
L[4096x18943]="s10_c4 s20_c2 s16_c4 s8_c8 s13_c8"
L[4096x32001]="s8_c8 s16_c4 s13_c8 s10_c16"
L[2048x50257]="s13_c8 s10_c16 s16_c16"
L[1024x128257]="s16_c16 s20_c16 s26_c16"
L[512x151937]="s20_c16 s26_c16"
L[512x199999]="s26_c16"
for round in 1 2; do
  for sh in 8192x16385 4096x18943 4096x32001 2048x50257 1024x128257 512x151937 512x199999; do
    for v in pick ${L[$sh]}; do
      pin=; [ $v = pick ] || pin=${V}_${v}_pairs_x2
      KP_VARIANT=$pin timeout "$(left 420)" python3 bench/side_by_side.py --ops rmsnorm_swiglu --dtypes bf16 \
        --shapes $sh --no-compile --reps 20 --warmup 4 --json "$R/x2_${sh}_${v}_$round.json" \
        >"$R/x2_${sh}_${v}_$round.log" 2>&1
      echo "$round $sh $v rc=$? $(grep -E '^  ours' "$R/x2_${sh}_${v}_$round.log" | cut -c1-24 | tr -s ' ')"
    done
  done
done
el ab
ab rsw rmsnorm_swiglu bf16 8192x16385,4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999 1 520
lanes_finish
