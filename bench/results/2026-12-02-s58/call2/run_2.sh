#!/bin/bash
# fifty-eighth session, call 2: RMSNorm `_ws` with the next row's x in
# flight (PF: `_f1` its vectors in registers, `_f2` its lines into L2) --
# float64 over every `_ws`; kp tune at odd 513-1024 rows; each `_ws` pinned
# (KP_VARIANT) side by side in turns, bf16 two rounds
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="_ws_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 80) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "pins"
S=131072x1001,65536x1001,32768x1001,16384x1001,131072x777,131072x513
pins pin rmsnorm bf16 $S 2 260 rmsnorm_bf16_ws_v8_n4_r16_p2 rmsnorm_bf16_ws_v8_n4_r8_p3_f1 \
  rmsnorm_bf16_ws_v8_n4_r8_p4_f1 rmsnorm_bf16_ws_v8_n4_r4_p6_f1 rmsnorm_bf16_ws_v8_n4_r16_p2_f2 \
  rmsnorm_bf16_ws_v8_n4_r8_p5_f2
el "tune"
cat > $R/shapes.txt <<'S'
rmsnorm 131072 1001
rmsnorm 16384 1001
rmsnorm 131072 777
S
timeout $(left 420) stdbuf -oL build/bin/kp tune -o $R/ws.tune --dtypes bf16,f16 --shapes $R/shapes.txt \
  --reps 15 --time-budget 150 > $R/tune.log 2>&1; echo "tune rc=$?"
grep -E "default .* best" $R/tune.log | cut -c1-220
for dt in bf16 f16; do grep -v '^#' $R/shapes.txt | while read f r c; do echo "== $f $dt $r x $c"; grep "^$f $dt ${r}x$c " $R/ws.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; done; done
lanes_finish
