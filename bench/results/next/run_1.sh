#!/bin/bash
# Next session's first call (written by the thirty-sixth session, NOTES item
# 70): on an H100 if one is lent (none since the twenty-sixth session), else
# an H200.  Make, copy this script to build/carry/, carry the packs as
# build/carry/packs.tar.xz (bench/lanes.sh; re-pack after make, and check it
# with `xz -t`), run it as it is.
# - item 70's rankings (RoPE one token a block up to 512 tokens, SwiGLU's
#   65-128 rows in 256-thread chunks) rest on H200 runs: the PDL chain whole
#   and op by op, and RoPE against four tokens a block pinned, on this GPU;
# - the ops and graph suites first.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "suites"; gpu_suite ops.log 60 ops_gpu; gpu_suite graph.log 100 graph_gpu
el "chain"
timeout $(left 230) python3 bench/pdl_bench.py --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^==== pdl_bench: us" $R/chain.log | cut -c1-120
pdl rms "" rmsnorm 1,16,128 245
pdl swi "" swiglu 1,16,32,64,128 265
pdl rope "" rope 1,16,128,256,512,1024 285
pdl rope_r4 rope_bf16_t8_v8_u2_pl_neox rope 16,128,256,512,1024 305
pdl swi_t1024 swiglu_bf16_t1024x1_v8_u1 swiglu 64,128 320
el "side"
timeout $(left 380) python3 bench/side_by_side.py --ops rope,swiglu --shapes 16x14336,128x14336,512x14336 \
  --reps 200 --json $R/side.json 2>&1 | grep -vE "$F" > $R/side.log; echo "side rc=$?"
grep -E "^(rope|swiglu) " $R/side.log | cut -c1-150
lanes_finish
