#!/bin/bash
# Thirty-sixth session, call 5 (the final pack): compute-sanitizer's memcheck,
# racecheck and synccheck over every RoPE `_r1` variant (float64 passed in
# calls 2-3); the ops and graph suites; the PDL chain with the final picks
# (RoPE one token a block up to 512 tokens, SwiGLU 256 x 1 at 65-128 rows);
# then, as time allows, kp tune of softmax's odd ranges (the tune the
# thirty-fifth session's next-call script left, again cut by its budget in
# call 1).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "sanitizers"
san memcheck variants_gpu _r1_pl mem.log 90
san racecheck variants_gpu _r1_pl race.log 170
san synccheck variants_gpu _r1_pl sync.log 230
el "suites"; gpu_suite ops.log 280 ops_gpu; gpu_suite graph.log 320 graph_gpu
el "chain"
timeout $(left 360) python3 bench/pdl_bench.py --no-compile --json $R/chain.json > $R/chain.log 2>&1
echo "chain rc=$?"; grep -A5 "^==== pdl_bench: us" $R/chain.log | cut -c1-120
cat > $R/shapes.txt <<'S'
softmax 16384 4097
softmax 2048 50257
softmax 512 151937
softmax 512 199999
S
el "tune"
timeout $(left 520) build/bin/kp tune --device 0 --families softmax --reps 5 --dtypes bf16 \
  --time-budget 130 --shapes $R/shapes.txt -q -o $R/sm.tune > $R/tune.log 2>&1
echo "tune rc=$?"
while read f r c; do s=${r}x$c
  grep "^$f bf16 $s " $R/sm.tune | sort -k6 -n | head -3 | awk '{printf "%s %s %s | ", $3, $5, $6}'; echo
done < $R/shapes.txt
grep -E "default" $R/tune.log | cut -c1-170
lanes_finish
