#!/bin/bash
# forty-seventh session, call 9: RMSNorm+SwiGLU's `_pairs` stage variants of
# two CTAs an SM with PIPE (w's words a half step ahead: E1 of calls 4-8 in
# the template): float64 over them, compute-sanitizer over them, and the
# rows they are picked for side by side
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
ONLY="stage_t512_v8_u2_s50_c2_pairs|stage_t512_v8_u2_s50_c8_pairs|stage_t512_v8_u2_s64_c4_pairs"
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="$ONLY" \
  timeout $(left 90) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|left out" $R/var.log | head -6 | cut -c1-250
el "side by side"
timeout $(left 200) python3 bench/side_by_side.py --ops rmsnorm_swiglu \
  --shapes 512x199999,1024x199999,512x170001,2048x40001,2048x38001,512x151937 \
  --no-compile --reps 30 --warmup 5 --json $R/sbs.json > $R/sbs.log 2>&1
echo "sbs rc=$?"; grep -E "^ *rmsnorm_swiglu " $R/sbs.log | cut -c1-150
el "sanitizers"
san memcheck variants_gpu "$ONLY" mem.log 330
san racecheck variants_gpu "$ONLY" race.log 460
san synccheck variants_gpu "$ONLY" sync.log 560
el end
lanes_finish
