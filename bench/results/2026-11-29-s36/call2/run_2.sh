#!/bin/bash
# Thirty-sixth session, call 2: where the PDL chain's time goes at 1 / 16 /
# 128 tokens (issue 14 part 2: PDL saves 29 / 19 / 10%, bar 25%).  Each op's
# own chain (bench/pdl_bench.py --ops) with and without PDL, then other
# variants of each op pinned (KP_VARIANT) at the token counts where the
# ranking's pick is a guess: RoPE over 1-2 tokens a block (new, for the
# tuner), SwiGLU's column chunks at 128 tokens, RMSNorm's other block shapes.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
export PYTHONPATH=$PWD/python
CUDA_VISIBLE_DEVICES=0 KP_REQUIRE_GPU=1 CK_RUN_SUITE=variants_gpu KP_TEST_ONLY="_r1_pl|_r2_pl" \
  timeout $(left 40) build/tests/check_kernpack > $R/var.log 2>&1; echo "var rc=$?"
grep -E "Checks|:[EF]:" $R/var.log | head -3 | cut -c1-250
el "chain"
timeout $(left 150) python3 bench/pdl_bench.py --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^==== pdl_bench: us" $R/chain.log | cut -c1-120
pb() { # pb NAME PIN OPS TOKENS
  el "$1"
  KP_VARIANT=$2 timeout $(left $5) python3 bench/pdl_bench.py --no-compile --ops $3 --tokens $4 \
    --json $R/$1.json > $R/$1.log 2>&1
  echo "$1 ($2) rc=$? $(grep -E '^ *[0-9]+ \|' $R/$1.log | awk '{printf "T%s %s/%s %s | ", $1, $3, $5, $7}')"
}
pb rms "" rmsnorm 1,16,128 200
pb swi "" swiglu 1,16,128 220
pb rope "" rope 1,16,128 240
pb rope_t8r1 rope_bf16_t8_v8_u2_r1_pl rope 1,16,128 260
pb rope_t8r2 rope_bf16_t8_v8_u2_r2_pl rope 16,128 275
pb rope_t16r1 rope_bf16_t16_v8_u2_r1_pl rope 16,128 290
pb rope_t16 rope_bf16_t16_v8_u2_pl_neox rope 16,128 305
pb swi_c128 swiglu_bf16_c128_v8_u1 swiglu 128 320
pb swi_c256 swiglu_bf16_c256_v8_u1 swiglu 128 335
pb swi_c64 swiglu_bf16_c64_v8_u1 swiglu 16,128 350
pb swi_t256 swiglu_bf16_t256x1_v8_u1 swiglu 16,128 365
pb rms_t512n2 rmsnorm_bf16_block_t512_v8_n2_w rmsnorm 16,128 380
pb rms_t1024n1 rmsnorm_bf16_block_t1024_v8_n1 rmsnorm 1,16,128 395
pb rms_t256n4c2 rmsnorm_bf16_block_t256_v8_n4_c2 rmsnorm 16,128 410
pb rms_loop rmsnorm_bf16_loop_t512_v8_w rmsnorm 16,128 425
lanes_finish
