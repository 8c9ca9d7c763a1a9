#!/bin/bash
# forty-seventh session, call 2: the staged row kernels with (a) the bulk
# copies issued by thread 0 before any block barrier (the edges' loads by the
# last warp, one barrier for both images), (b) 16-bit sums of squares by the
# tensor cores (ldmatrix + mma m16n8k8, RMSNorm and RMSNorm+SwiGLU), (c)
# RMSNorm+SwiGLU's pairs pass with 1/rs^2 once: every `_stage_` variant
# against float64; call 1's rows sweep again; the odd sweep of the four staged
# families (no torch.compile); ncu source counters of RMSNorm+SwiGLU's pick at
# 512 x 199999; synccheck / racecheck / memcheck over a few stage variants
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64 every stage variant"
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_stage_" \
  timeout $(left 160) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:|cases|left out" $R/var.log | head -8 | cut -c1-250
el "rows sweep"
timeout $(left 230) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu,softmax \
  --shapes 128x199999,256x199999,512x199999,528x199999,1024x199999,1056x151937,512x151937 \
  --no-compile --reps 30 --warmup 5 --json $R/rows.json > $R/rows.log 2>&1
echo "rows rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu|softmax) " $R/rows.log | cut -c1-150 | head -40
el "odd sweep"
timeout $(left 330) python3 bench/side_by_side.py --ops rmsnorm,add_rmsnorm,rmsnorm_swiglu,softmax \
  --shapes 131072x1001,32768x4097,8192x11007,4096x32001,2048x50257,1024x128257,512x151937,512x199999 \
  --no-compile --reps 30 --warmup 5 --json $R/odd.json > $R/odd.log 2>&1
echo "odd rc=$?"; grep -E "^ *(rmsnorm|add_rmsnorm|rmsnorm_swiglu|softmax) " $R/odd.log | cut -c1-150 | head -40
NS="--clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight --import-source no"
el "ncu rsw"
timeout $(left 360) ncu --target-processes all $NS -k "regex:^rmsnorm_swiglu_bf16_" -s 3 -c 1 -o $R/rsw_199999 \
  python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes 512x199999 --no-compile --reps 4 --warmup 2 > $R/rsw_199999.log 2>&1
ncu -i $R/rsw_199999.ncu-rep --page source --csv --print-source sass > $R/rsw_199999.csv 2>/dev/null
python3 bench/ncu_stalls.py $R/rsw_199999.csv --top 3; xz -T4 -9 $R/rsw_199999.csv
el "sanitizers"
S1="rmsnorm_bf16_stage_t256_v8_u2_s26_c16_wc|rmsnorm_swiglu_bf16_stage_t512_v8_u2_s50_c8_pairs|add_rmsnorm_bf16_stage_t512_v8_u2_s50_c8_wc|softmax_bf16_stage_t512_v8_u2_s100_c4|rmsnorm_f16_stage_t128_v8_u2_s16|rmsnorm_swiglu_f16_stage_t512_v8_u2_s32_c2_pairs"
SAN_OPTS= san synccheck variants_gpu "$S1" sync.log 430
san memcheck variants_gpu "$S1" mem.log 500
san racecheck variants_gpu "rmsnorm_bf16_stage_t128_v8_u2_s16|rmsnorm_swiglu_f16_stage_t512_v8_u2_s32_c2_pairs" race.log 570
el end
lanes_finish
