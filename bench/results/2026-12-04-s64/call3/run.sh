#!/bin/bash
# s64 call 3: RMSNorm+SwiGLU's staged pairs pass: its last part step's w
# loads first (ranked picks), and `_ws` variants (w's slices staged as two
# more images; for the tuner) (NOTES 105), over the prologue change (call 2).
# (1) float64 over every `_pairs` variant; (2) memcheck over the f32 filler
# (synccheck met an illegal address in it, call 2) and pairs variants;
# racecheck + synccheck over pairs / ws + an f32 cluster stage variant;
# (3) in turns: main's pack (old), prologue only (p1), this one (new), two
# rounds; (4) the `_ws` variants pinned.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
mkdir -p build/packs_p1 && xz -dc build/carry/packs_p1.tar.xz | tar -C build/packs_p1 -xf - || exit 1
GPU=0
el f64; f64 '_pairs|rmsnorm_f32_block_t128_v4_n1' 130
O='_stage_t256_v8_u2_s20_c2_pairs|_stage_t256_v8_u2_s10_c4_pairs_ws|add_rmsnorm_f32_stage_t512_v4_u2_s32_c2'
el san
san memcheck variants_gpu "rmsnorm_f32_block_t128_v4_n1|$O" mem.log 190
grep -E "Invalid|of size|at 0x|by thread" "$R/mem.log" | head -6
san racecheck variants_gpu "$O" race.log 240
san synccheck variants_gpu "$O" sync.log 290
grep -E "ABORT|FAIL" "$R/sync.log" | head -3
el ab
S=4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999
for round in 1 2; do
  for which in old p1 new; do
    pd=$PWD/build/packs; [ $which != new ] && pd=$PWD/build/packs_$which
    KP_PACK_DIR=$pd timeout "$(left 480)" python3 bench/side_by_side.py --ops rmsnorm_swiglu --dtypes bf16 --shapes $S \
      --no-compile --reps 20 --warmup 4 --json "$R/rsw_${which}_$round.json" >"$R/rsw_${which}_$round.log" 2>&1
    echo "== $which $round rc=$? $(grep -E '^  ours' "$R/rsw_${which}_$round.log" | cut -c1-24 | tr -s ' ' | paste -sd' ')"
  done
done
el pins
B=rmsnorm_swiglu_bf16_stage_t
pins a rmsnorm_swiglu bf16 4096x18943,2048x20001 1 520 ${B}256_v8_u2_s10_c4_pairs_ws ${B}256_v8_u2_s20_c2_pairs_ws ${B}256_v8_u2_s14_c3_pairs_ws ${B}128_v8_u2_s10_c4_pairs_ws ${B}256_v8_u2_s20_c2_pairs
pins b rmsnorm_swiglu bf16 4096x32001 1 550 ${B}256_v8_u2_s16_c4_pairs_ws ${B}256_v8_u2_s8_c8_pairs_ws
pins c rmsnorm_swiglu bf16 2048x50257 1 570 ${B}256_v8_u2_s13_c8_pairs_ws
pins d rmsnorm_swiglu bf16 512x151937,512x199999 1 590 ${B}256_v8_u2_s25_c16_pairs_ws
lanes_finish
