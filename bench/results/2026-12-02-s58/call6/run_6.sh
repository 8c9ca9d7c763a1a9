#!/bin/bash
# fifty-eighth session, call 6: the scalar-tail rows ranked (RMSNorm's warp
# rows of 4 and 6 vectors a lane, add+RMSNorm's of 6; `_ws` kept for 513-768
# alone) and add_end_j -- float64 over every changed variant; side by side in
# turns with main's pack; pins at 513-768;
# ops_gpu, graph_gpu; the odd sweep of the two norms (issue 14's bar, bf16)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu \
  KP_TEST_ONLY="_ws_|warp_v8_n4|warp_v8_n6|add_rmsnorm_bf16_pers|add_rmsnorm_f16_pers|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 60) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "ab rms"
ab ab rmsnorm bf16 131072x1001,65536x1001,16384x1001,4096x1001,131072x777,65536x1201,65536x1501,65536x2001 2 130
el "ab add"
ab abadd add_rmsnorm bf16 65536x1201,65536x1501,131072x1001,512x151937 1 160
el "pins 513-768"
pins lo rmsnorm bf16 131072x513,131072x640,131072x768,16384x640 2 215 rmsnorm_bf16_ws_v8_n4_r16_p2 \
  rmsnorm_bf16_ws_v8_n4_r16_p2_t rmsnorm_bf16_warp_v8_n4_t rmsnorm_bf16_warp_v8_n4_tk
el "ops, graph"
gpu_suite ops.log 245 ops_gpu
gpu_suite graph.log 280 graph_gpu
el "odd sweep"
grep -E "^(rmsnorm|add_rmsnorm) " bench/shapes_odd.txt > $R/odd.txt
timeout $(left 400) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm --dtypes bf16 --shapes-file $R/odd.txt \
  --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1; echo "odd rc=$?"
python3 -c "
import json; d=json.load(open('$R/odd.json'))
for r in d['results']: print(r['op'], r['shape'], '%.1f'%r['pct_copy_ours'], '%.2f'%r['ratio_ours_best_peer'])"
lanes_finish
