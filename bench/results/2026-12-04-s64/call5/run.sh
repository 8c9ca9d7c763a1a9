#!/bin/bash
# s64 call 5: the staged prologue (043a798) with RMSNorm+SwiGLU's pairs tail
# as one clamped step at 256 threads or fewer (NOTES 105).  (1) float64 over
# every `_pairs` variant, racecheck over the 16385 pick; (2) in turns with
# main's pack (0511f7f), bf16, two rounds, the ranked pairs stage picks'
# ranges; (3) the odd sweep, every op, no torch.compile (time).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el f64; f64 '_pairs|rmsnorm_f32_block_t128_v4_n1' 40
el san
san racecheck variants_gpu '_stage_t256_v8_u2_s17_c2_pairs|add_rmsnorm_f32_stage_t512_v4_u2_s32_c2' race.log 60
el ab
ab rsw rmsnorm_swiglu bf16 8192x16385,8192x17001,4096x18943,4096x20001,4096x21001,4096x22001,4096x32001,2048x50257,1024x128257,512x151937,512x199999 2 260
el sweep
timeout "$(left 420)" python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt --no-compile \
  --reps 20 --json "$R/odd.json" >"$R/odd.log" 2>&1
echo "sweep rc=$?"; grep -A80 "==== side" "$R/odd.log" | grep -E "^(softmax|rmsnorm|add_rmsnorm|rmsnorm_swiglu|swiglu|geglu)" | awk -F'|' '{print $1, $6, $8}' | head -80
lanes_finish
