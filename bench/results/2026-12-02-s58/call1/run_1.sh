#!/bin/bash
# fifty-eighth session, call 1: the fifty-seventh's next call (RMSNorm `_ws_k`
# ranked in `_ws_v8_n4_r16_p2`'s place) plus add_end_j.patch (add+RMSNorm's
# persistent rows' end chunk by kp_prow_end_j) -- float64 over every `_ws`
# and add+RMSNorm `_pers`; side by side in turns with main's pack; kp tune of
# the odd sweep's weakest long rows (every variant of the whole pack)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="_ws_|add_rmsnorm_bf16_pers|add_rmsnorm_f16_pers|add_rmsnorm_f32_pers|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 100) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "ab rms"
ab ab rmsnorm bf16 131072x1001,65536x1001,32768x1001,16384x1001,131072x777,131072x513 2 230
el "ab add"
ab abadd add_rmsnorm bf16 512x151937,512x199999,512x155649 2 300
el "tune"
cat > $R/shapes.txt <<'S'
rmsnorm 4096 18943
rmsnorm 2048 50257
rmsnorm 1024 128257
rmsnorm 512 151937
rmsnorm 512 199999
add_rmsnorm 1024 128257
add_rmsnorm 512 151937
S
timeout $(left 520) stdbuf -oL build/bin/kp tune -o $R/odd.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 15 --time-budget 200 > $R/tune.log 2>&1; echo "tune rc=$?"
grep -E "default .* best" $R/tune.log | cut -c1-220
grep -v '^#' $R/shapes.txt | while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/odd.tune | sort -k6 -g | head -4 | awk '{print $5, $6}'; done
lanes_finish
