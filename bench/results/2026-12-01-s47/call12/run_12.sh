#!/bin/bash
# forty-seventh session, call 12: call 11 again with the `_pp` variants
# loading both words of w's pairs whatever the selector (NVRTC's build of
# call 11's loop: 397 instructions against nvcc's 371; now 367)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
ONLY="_pairs_pp"
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="$ONLY" \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|left out" $R/var.log | head -6 | cut -c1-250
sbs() { # NAME PIN SHAPES
  KP_VARIANT=$2 timeout $(left 330) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes $3 \
    --no-compile --reps 40 --warmup 5 > $R/$1.log 2>&1
  echo "$1: $(grep -E '^ *rmsnorm_swiglu ' $R/$1.log | awk -F'|' '{printf "%s %s%% |", $1, $6}')"
}
L=512x199999,1024x199999,512x170001
for round in 1 2; do
  el "round $round"
  sbs pp_r$round "" $L
  sbs twin_r$round rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c8_pairs $L
  sbs c2twin_r$round "" 2048x40001,2048x38001
  sbs c2pp_r$round rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c2_pairs_pp 2048x40001,2048x38001
done
el "sanitizers"
san memcheck variants_gpu "$ONLY" mem.log 430
san racecheck variants_gpu "$ONLY" race.log 520
san synccheck variants_gpu "$ONLY" sync.log 580
el end
lanes_finish
