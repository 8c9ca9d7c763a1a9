#!/bin/bash
# Thirty-sixth session, call 4: where RoPE's one token a block (`_r1`) stops
# paying -- ranked here (a trial pack) up to 1024 tokens, against the four
# tokens a block pinned, in the PDL chain's RoPE alone and single calls side
# by side; SwiGLU's column chunks at 16-64 rows (128 against 256 threads);
# the whole PDL chain twice more (issue 14 part 2's bar at 1 / 16 / 128).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
pb() { # pb NAME PIN OPS TOKENS DEADLINE
  el "$1"
  KP_VARIANT=$2 timeout $(left $5) python3 bench/pdl_bench.py --no-compile --ops $3 --tokens $4 \
    --json $R/$1.json > $R/$1.log 2>&1
  echo "$1 ($2) rc=$? $(grep -E '^ *[0-9]+ \|' $R/$1.log | awk '{printf "T%s %s/%s %s | ", $1, $3, $5, $7}')"
}
pb chain_a "" rmsnorm,swiglu,rope 1,16,128 30
pb rope "" rope 128,192,256,384,512,1024 50
pb rope_r4 rope_bf16_t8_v8_u2_pl_neox rope 128,192,256,384,512,1024 70
pb swi "" swiglu 16,32,48,64 85
pb swi_c256 swiglu_bf16_c256_v8_u1 swiglu 16,32,48,64 100
sbs() { # sbs NAME PIN OPS SHAPES DEADLINE
  el "$1"
  KP_VARIANT=$2 timeout $(left $5) python3 bench/side_by_side.py --ops $3 --shapes $4 --reps 200 \
    --no-compile --json $R/$1.json 2>&1 | grep -vE "$F" > $R/$1.log
  echo "$1 ($2) rc=$?"; grep -E "^(swiglu|rope) " $R/$1.log | cut -c1-150
}
sbs sbs_rope "" rope 128x128,256x128,512x128,1024x128 135
sbs sbs_rope_r4 rope_bf16_t8_v8_u2_pl_neox rope 128x128,256x128,512x128,1024x128 170
pb chain_b "" rmsnorm,swiglu,rope 1,16,128 195
el "chain"
timeout $(left 330) python3 bench/pdl_bench.py --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^==== pdl_bench: us" $R/chain.log | cut -c1-120
lanes_finish
