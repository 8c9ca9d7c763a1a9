#!/bin/bash
# Next session's first call (written by the thirty-fourth session, NOTES item
# 68): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  Make, copy this script to build/carry/, carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make), run it as
# it is.
# - RMSNorm+SwiGLU's 40961-51200 pick (256 x 2 pairs over 4 CTAs of 25 KiB,
#   ranked from one kp tune run): float64, memcheck, racecheck; side by side
#   with the odd sweep (every op), its 50257 for the first time;
# - kp tune, bf16 and f16, inside and at the ends of item 68's ranges (each
#   was ranked from one length): 4097-4608 (rmsnorm, add_rmsnorm),
#   8193-11264 (add_rmsnorm), 40961-51200 (rmsnorm, softmax,
#   rmsnorm_swiglu), 131073-204800 (softmax); and RMSNorm at 9001 / 11007,
#   where the tuner-only 256 x 2 in 24 KiB ran 1.4% ahead of the 512 x 1
#   pick (call 5, one run: not ranked on that).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
V=stage_t256_v8_u2_s25_c4_pairs
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY=$V \
  timeout $(left 30) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
san memcheck variants_gpu $V mem.log 70
san racecheck variants_gpu $V race.log 120
el "side odd"
timeout $(left 230) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "side_odd rc=$?"
grep -E "^(softmax|rmsnorm|add_rms|swiglu|geglu|rmsnorm_sw)" $R/side_odd.log | cut -c1-150
cat > $R/shapes.txt <<'S'
rmsnorm 16384 4353
rmsnorm 16384 4607
rmsnorm 16384 4611
rmsnorm 2048 40961
rmsnorm 2048 45001
rmsnorm 2048 51199
rmsnorm 8192 9001
rmsnorm 8192 11007
add_rmsnorm 16384 4353
add_rmsnorm 8192 8195
add_rmsnorm 8192 10001
add_rmsnorm 8192 11263
softmax 2048 40961
softmax 2048 45001
softmax 512 131075
softmax 512 140001
softmax 512 155647
softmax 512 170001
softmax 512 204799
rmsnorm_swiglu 2048 40961
rmsnorm_swiglu 2048 45001
rmsnorm_swiglu 2048 51199
S
el "tune"
timeout $(left 560) build/bin/kp tune --device 0 --families rmsnorm,softmax,add_rmsnorm,rmsnorm_swiglu \
  --reps 5 --dtypes bf16,f16 --time-budget 300 --shapes $R/shapes.txt -q -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for d in bf16 f16; do while read f r c; do s=${r}x$c
  grep "^$f $d $s " $R/c1.tune | sort -k6 -n | head -2 | awk '{printf "%s %s %s %s | ", $2, $3, $5, $6}'; echo
done < $R/shapes.txt; done
lanes_finish
