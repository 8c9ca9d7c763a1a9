#!/bin/bash
# Next session's first call (written by the fifty-eighth, bench/NOTES.md 93,
# whose device time ran out): (1) the ranking it landed last, RMSNorm's 128 x
# 4 block by the scalar-tail form for odd 4097-4103 (pinned only, call 8),
# side by side in turns with the pack before it (packs_old: the sm_90a whole
# pack built with fe0864b's templates/rmsnorm.lua -- `git show
# fe0864b:templates/rmsnorm.lua > templates/rmsnorm.lua`, make packs-whole,
# bench/lanes.sh's packs_old line, `git checkout templates/rmsnorm.lua`,
# make again) at 4096-65536 rows, bf16 and f16; (2) the `_t` warp rows in f16 (ranked on
# bf16's numbers); (3) `kp tune` where the 256 x 6 `_t` block may win
# (8192 x 11007 91.6 against 93.9 us in one round), 9001-12287.  Build
# (make packs-whole; the CPU tests), carry the packs (bench/lanes.sh), copy
# this script to build/carry/ and run it (step 0 first).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
# (0) the `_t` variants under float64 and compute-sanitizer: the fifty-eighth
# ran float64 over them but no sanitizer (its device time ran out)
T="_v8_n4_t|_v8_n6_t|_v8_n2_t|_v8_n1_t|_v8_n3_t|rmsnorm_f32_block_t128_v4_n1"
el "float64"; f64 "$T" 40
el "memcheck"; san memcheck variants_gpu "$T" mem.log 110
el "racecheck"; san racecheck variants_gpu "$T" race.log 180
el "ab bf16"
ab ab rmsnorm bf16 16384x4097,65536x4097,4096x4097,16384x4099 2 250
el "ab f16"
ab ab16 rmsnorm,add_rmsnorm f16 16384x4097,131072x1001,65536x1001,65536x1201,131072x513 1 330
el "tune"
cat > $R/shapes.txt <<'S'
rmsnorm 8192 11007
rmsnorm 16384 9001
rmsnorm 8192 12287
rmsnorm 4096 11007
S
timeout $(left 560) stdbuf -oL build/bin/kp tune -o $R/t.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 15 --time-budget 250 > $R/tune.log 2>&1; echo "tune rc=$?"
grep -E "default .* best" $R/tune.log | cut -c1-220
grep -v '^#' $R/shapes.txt | while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t.tune | sort -k6 -g | head -5 | awk '{print $5, $6}'; done
lanes_finish
