#!/bin/bash
# fifty-seventh session, call 4: the committed packs (RMSNorm `_ws` by
# kp_st16, kp_wimg_stage shared; add+RMSNorm as main's) -- ops_gpu,
# graph_gpu, float64 over every `_ws`, and the odd sweep of RMSNorm and
# add+RMSNorm (issue 14 part 1's bar, bf16)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "ops, graph"
gpu_suite ops.log 120 ops_gpu
gpu_suite graph.log 180 graph_gpu
el "float64"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 KP_TEST_TIMES=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_ws_|rmsnorm_f32_block_t128_v4_n1" \
  timeout $(left 230) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|ran no" $R/var.log | head -8 | cut -c1-300
el "odd sweep"
grep -E "^(rmsnorm|add_rmsnorm) " bench/shapes_odd.txt > $R/odd.txt
timeout $(left 380) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm --dtypes bf16 --shapes-file $R/odd.txt \
  --no-compile --reps 20 --warmup 4 --json $R/odd.json > $R/odd.log 2>&1; echo "odd rc=$?"
python3 -c "
import json; d=json.load(open('$R/odd.json'))
for r in d['results']: print(r['op'], r['shape'], '%.1f'%r['pct_copy_ours'], '%.2f'%r['ratio_ours_best_peer'])"
lanes_finish
