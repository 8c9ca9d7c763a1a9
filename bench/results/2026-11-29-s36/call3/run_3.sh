#!/bin/bash
# Thirty-sixth session, call 3: the new picks for a decode step's small calls
# (RoPE one token a block at <= 128 tokens, `_r1`; SwiGLU 256 threads x 1
# vector at 65-128 rows): float64 over every `_r1` variant, the ops and graph
# suites, the PDL chain (issue 14 part 2) whole and op by op, RoPE's `_r1`
# past 128 tokens (where to stop), and single calls side by side (L2 flushed)
# against the picks before (pinned).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_r1_pl" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
el "suites"; gpu_suite ops.log 100 ops_gpu; gpu_suite graph.log 140 graph_gpu
el "chain"
timeout $(left 260) python3 bench/pdl_bench.py --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^==== pdl_bench: us" $R/chain.log | cut -c1-120
pb() { # pb NAME PIN OPS TOKENS DEADLINE
  el "$1"
  KP_VARIANT=$2 timeout $(left $5) python3 bench/pdl_bench.py --no-compile --ops $3 --tokens $4 \
    --json $R/$1.json > $R/$1.log 2>&1
  echo "$1 ($2) rc=$? $(grep -E '^ *[0-9]+ \|' $R/$1.log | awk '{printf "T%s %s/%s %s | ", $1, $3, $5, $7}')"
}
pb chain2 "" rmsnorm,swiglu,rope 1,16,128 290
pb rms "" rmsnorm 1,16,128 300
pb swi "" swiglu 1,16,64,128 315
pb rope "" rope 1,16,64,128,256,512 335
pb rope_r1 rope_bf16_t8_v8_u2_r1_pl_neox rope 256,512,1024 355
pb rope_r4 rope_bf16_t8_v8_u2_pl_neox rope 64,1024 370
pb swi_t1024 swiglu_bf16_t1024x1_v8_u1 swiglu 64,128,256 385
pb swi_c256 swiglu_bf16_c256_v8_u1 swiglu 256 395
sbs() { # sbs NAME PIN OPS SHAPES DEADLINE
  el "$1"
  KP_VARIANT=$2 timeout $(left $5) python3 bench/side_by_side.py --ops $3 --shapes $4 --reps 200 \
    --json $R/$1.json 2>&1 | grep -vE "$F" > $R/$1.log
  echo "$1 ($2) rc=$?"; grep -E "^(swiglu|rope) " $R/$1.log | cut -c1-150
}
sbs sbs_swi "" swiglu 16x14336,64x14336,128x14336,128x4096 440
sbs sbs_swi_t1024 swiglu_bf16_t1024x1_v8_u1 swiglu 128x14336,128x4096 480
sbs sbs_rope "" rope 1x128,16x128,64x128,128x128 525
sbs sbs_rope_r4 rope_bf16_t8_v8_u2_pl_neox rope 1x128,16x128,64x128,128x128 570
lanes_finish
