#!/bin/bash
# Sixtieth session, call 3 (the fifty-ninth's planned third call, on the
# code as it lands): (0) float64, memcheck, racecheck over the `_rw2` /
# `_rs2` warp rows as emitted (nv 4, RW 2); (1) add+RMSNorm's `_rs2` ranked
# range pinned in turns against the warp rows it displaced (513-640, from
# 32768 rows) and at 641 (outside: the pick's own); (2) kp tune over
# RMSNorm+SwiGLU at odd 4097-4801 outputs (the sweep's 4097 at 77.3% of
# copy; the 5K image pick holds 10 rows a CTA sized for 5120); (3) ops_gpu,
# graph_gpu.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"; f64 "_rw2|_rs2|rmsnorm_f32_block_t128_v4_n1" 60
el "memcheck"; san memcheck variants_gpu "_rw2|_rs2|rmsnorm_f32_block_t128_v4_n1" mem.log 150
el "racecheck"; san racecheck variants_gpu "_rw2|_rs2|rmsnorm_f32_block_t128_v4_n1" race.log 240
el "pins add bf16"
pins add add_rmsnorm bf16 131072x513,65536x601,32768x577,131072x639 2 330 \
  add_rmsnorm_bf16_warp_v8_n4 add_rmsnorm_bf16_warp_v8_n4_t_rs2
el "pins add f16"
pins add16 add_rmsnorm f16 131072x513,65536x601,131072x639 1 370 \
  add_rmsnorm_f16_warp_v8_n4 add_rmsnorm_f16_warp_v8_n4_t_rs2
el "tune rmsnorm_swiglu"
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 32768 4097
rmsnorm_swiglu 16384 4353
rmsnorm_swiglu 16384 4801
S
timeout $(left 520) stdbuf -oL build/bin/kp tune -o $R/t.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 10 > $R/tune.log 2>&1; echo "tune rc=$?"
grep -v '^#' $R/shapes.txt | while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/t.tune | sort -k6 -g | head -8 | awk '{printf "%s %s | ", $5, $6}'; echo; done
el "ops_gpu"; gpu_suite ops.log 570 ops_gpu
el "graph_gpu"; gpu_suite graph.log 595 graph_gpu
lanes_finish
