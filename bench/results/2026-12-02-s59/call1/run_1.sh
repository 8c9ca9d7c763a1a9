#!/bin/bash
# Fifty-ninth session, call 1: (0) float64 over the scalar-tail warp rows
# and blocks (`_t`) and the new `_rw` / `_rs` twins (a warp's rows 8 apart,
# w kept in registers / shared memory, kp_wrow); (1) kp tune at the odd warp-row shapes, bf16, every
# applicable variant (the `_rw` among them) side by side in one process;
# (2) memcheck / racecheck over the `_t` and `_rw` variants (the fifty-eighth
# ran none over `_t`); (3) the 4097 ranking (c3c6ad6) in turns against the
# pack built with fe0864b's templates/rmsnorm.lua.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
T="_v8_n4_t|_v8_n6_t|_v8_n2_t|_v8_n1_t|_v8_n3_t|rmsnorm_f32_block_t128_v4_n1"
el "float64"; f64 "$T" 80
el "tune"
cat > $R/shapes.txt <<'S'
add_rmsnorm 131072 1001
add_rmsnorm 65536 1001
add_rmsnorm 16384 1001
add_rmsnorm 131072 777
add_rmsnorm 131072 513
add_rmsnorm 65536 1201
add_rmsnorm 65536 1501
rmsnorm 131072 1001
rmsnorm 65536 1001
rmsnorm 16384 1001
rmsnorm 131072 777
rmsnorm 131072 513
rmsnorm 65536 1201
rmsnorm 65536 1501
S
timeout $(left 300) stdbuf -oL build/bin/kp tune -o $R/t.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 15 > $R/tune.log 2>&1; echo "tune rc=$?"
grep -v '^#' $R/shapes.txt | while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t.tune | sort -k6 -g | head -6 | awk '{printf "%s %s | ", $5, $6}'; echo; done
el "memcheck"; san memcheck variants_gpu "_rw|_rs|_v8_n4_t|rmsnorm_f32_block_t128_v4_n1" mem.log 380
el "racecheck"; san racecheck variants_gpu "_rw|_rs|_v8_n4_t|rmsnorm_f32_block_t128_v4_n1" race.log 460
el "ab bf16"
ab ab rmsnorm bf16 16384x4097,65536x4097,4096x4097 2 540
el "ops_gpu"; gpu_suite ops.log 575 ops_gpu
el "graph_gpu"; gpu_suite graph.log 595 graph_gpu
lanes_finish
