#!/bin/bash
# s64 call 4: the staged kernels' prologue (call 2) with RMSNorm+SwiGLU's
# pairs tail as one step of clamped, unguarded w loads (NOTES 105).
# (1) float64 over every `_stage_` variant; ops_gpu, graph_gpu; racecheck
# over the 18943 pick (both 16-bit dtypes) and an f32 cluster stage variant;
# (2) in turns: main's pack (old), prologue only (p1), this one (new).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
mkdir -p build/packs_p1 && xz -dc build/carry/packs_p1.tar.xz | tar -C build/packs_p1 -xf - || exit 1
GPU=0
el f64; f64 '_stage_|rmsnorm_f32_block_t128_v4_n1' 120
el ops; gpu_suite ops.log 170 ops_gpu
el graph; gpu_suite graph.log 220 graph_gpu
el san
san racecheck variants_gpu '_stage_t256_v8_u2_s20_c2_pairs|add_rmsnorm_f32_stage_t512_v4_u2_s32_c2' race.log 250
# (call 2's synccheck died in the f32 filler, illegal address; memcheck over it clean, call 3)
san synccheck variants_gpu 'rmsnorm_f32_block_t128_v4_n1|rmsnorm_bf16_block_t128_v8_n1|rmsnorm_f16_block_t128_v8_n1' sync_filler.log 280
grep -E "ABORT|Barrier|Missing|Invalid" "$R/sync_filler.log" | head -4
el ab
S=4096x18943,4096x32001,2048x50257,1024x128257,512x151937,512x199999,8192x16385,4096x21001
for round in 1 2; do
  for which in old p1 new; do
    pd=$PWD/build/packs; [ $which != new ] && pd=$PWD/build/packs_$which
    KP_PACK_DIR=$pd timeout "$(left 430)" python3 bench/side_by_side.py --ops rmsnorm_swiglu --dtypes bf16 --shapes $S \
      --no-compile --reps 20 --warmup 4 --json "$R/rsw_${which}_$round.json" >"$R/rsw_${which}_$round.log" 2>&1
    echo "== $which $round rc=$? $(grep -E '^  ours' "$R/rsw_${which}_$round.log" | cut -c1-24 | tr -s ' ' | paste -sd' ')"
  done
done
lanes_finish
