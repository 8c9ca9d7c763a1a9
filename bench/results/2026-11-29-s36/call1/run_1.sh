#!/bin/bash
# Next session's first call (written by the thirty-fifth session, NOTES
# item 69): on an H100 if one is lent (none since the twenty-sixth session),
# else an H200.  Make, copy this script to build/carry/, carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make, and check it
# with `xz -t`), run it as it is.
# - what the thirty-fourth session's next-call script left when its tune
#   ran out of time in the thirty-fifth's call 1: kp tune, bf16 and f16,
#   inside and at the ends of item 68's softmax, add+RMSNorm and
#   RMSNorm+SwiGLU ranges;
# - the `_wc` rankings of item 69 in f16 where its call 4 did not reach
#   (ranked from bf16 runs): RMSNorm at 12287 / 24577 / 57001 / 131071,
#   add+RMSNorm at 8193 / 90001 / 151937;
# - the odd sweep side by side, every op;
# - first, float64 over every `_wc` variant: item 69's calls 3-4 ran the
#   final code's ranked ones (bf16, and one in f16 too), call 2 every one in
#   the form before kp_stage_norm_loop was shared (SASS +2 instructions in
#   one residue's loop since).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_wc" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
el "side odd"
timeout $(left 260) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "side_odd rc=$?"
grep -E "^(softmax|rmsnorm|add_rms|swiglu|geglu|rmsnorm_sw)" $R/side_odd.log | cut -c1-150
cat > $R/shapes.txt <<'S'
add_rmsnorm 16384 4353
add_rmsnorm 8192 8195
add_rmsnorm 8192 10001
add_rmsnorm 8192 11263
softmax 2048 40961
softmax 2048 45001
softmax 512 131075
softmax 512 155647
softmax 512 170001
softmax 512 204799
rmsnorm_swiglu 2048 40961
rmsnorm_swiglu 2048 45001
rmsnorm_swiglu 2048 51199
S
cat > $R/f16.txt <<'S'
rmsnorm 8192 12287
rmsnorm 4096 24577
rmsnorm 2048 57001
rmsnorm 1024 131071
add_rmsnorm 8192 8193
add_rmsnorm 1024 90001
add_rmsnorm 512 151937
S
el "tune"
timeout $(left 420) build/bin/kp tune --device 0 --families softmax,add_rmsnorm,rmsnorm_swiglu \
  --reps 5 --dtypes bf16,f16 --time-budget 180 --shapes $R/shapes.txt -q -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"
timeout $(left 570) build/bin/kp tune --device 0 --families rmsnorm,add_rmsnorm \
  --reps 5 --dtypes f16 --time-budget 140 --shapes $R/f16.txt -q -o $R/f16.tune > $R/tune_f16.log 2>&1
echo "tune f16 rc=$?"
for d in bf16 f16; do while read f r c; do s=${r}x$c
  grep "^$f $d $s " $R/c1.tune | sort -k6 -n | head -2 | awk '{printf "%s %s %s %s | ", $2, $3, $5, $6}'; echo
done < $R/shapes.txt; done
while read f r c; do s=${r}x$c
  grep "^$f f16 $s " $R/f16.tune | sort -k6 -n | head -2 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/f16.txt
lanes_finish
