#!/bin/bash
# Thirty-fifth session, call 1: the thirty-fourth's next-call script (its
# float64 / memcheck / racecheck of RMSNorm+SwiGLU's 40961-51200 pick; kp
# tune inside and at the ends of item 68's ranges, bf16 and f16) with
# RMSNorm's `_wc` stage variants in the pack (w's residue a compile-time
# constant in the write pass: one loop a residue), float64 over every `_wc`
# variant, and RMSNorm's odd sweep lengths in the tune list.  The side-by-side
# odd sweep waits for call 2 (after any re-ranking).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
V=stage_t256_v8_u2_s25_c4_pairs
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="$V|_wc" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
grep -cE "_wc" $R/var.log
san memcheck variants_gpu $V mem.log 110
san racecheck variants_gpu $V race.log 160
cat > $R/shapes.txt <<'S'
rmsnorm 16384 4097
rmsnorm 16384 4353
rmsnorm 16384 4607
rmsnorm 16384 4611
rmsnorm 8192 11007
rmsnorm 8192 9001
rmsnorm 4096 32001
rmsnorm 2048 40961
rmsnorm 2048 50257
rmsnorm 2048 51199
rmsnorm 1024 128257
rmsnorm 512 151937
rmsnorm 512 199999
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
el "tune"
timeout $(left 575) build/bin/kp tune --device 0 --families rmsnorm,softmax,add_rmsnorm,rmsnorm_swiglu \
  --reps 5 --dtypes bf16,f16 --time-budget 380 --shapes $R/shapes.txt -q -o $R/c1.tune > $R/tune.log 2>&1
echo "tune rc=$?"
for d in bf16 f16; do while read f r c; do s=${r}x$c
  grep "^$f $d $s " $R/c1.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s %s | ", $2, $3, $5, $6}'; echo
done < $R/shapes.txt; done
lanes_finish
