#!/bin/bash
# Sixtieth session, call 7: RMSNorm+SwiGLU's persistent clusters whose rows
# share one residue (`_rpers`: a multiple of 8 clusters, w staged once on
# the rows' y grid, 64 write loops for gate's and up's windows; tuner-only):
# float64 over every `_rpers`, memcheck over two; kp tune (bf16) at the odd
# sweep's long lengths and one aligned; the pick and `_rpers` pinned in turns.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"; f64 "_rpers_|rmsnorm_f32_block_t128_v4_n1" 90
el "memcheck"; san memcheck variants_gpu "_rpers_t512_b3_w1600_c16|_rpers_t512_b4_w1216_c2|rmsnorm_f32_block_t128_v4_n1" mem.log 160
el "tune"
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 512 199999
rmsnorm_swiglu 512 151937
rmsnorm_swiglu 1024 128257
rmsnorm_swiglu 2048 50257
rmsnorm_swiglu 4096 32001
rmsnorm_swiglu 4096 18943
rmsnorm_swiglu 512 200000
S
timeout $(left 420) stdbuf -oL build/bin/kp tune -o $R/t.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 10 > $R/tune.log 2>&1; echo "tune rc=$?"
while read f r c; do
  echo "== $f $r x $c"
  grep "^$f bf16 ${r}x$c " $R/t.tune | sort -k6 -g | head -5 | awk '{printf "%s %s | ", $5, $6}'; echo
done < $R/shapes.txt
el "pinned in turns"
for round in 1 2; do
  for v in pick rmsnorm_swiglu_bf16_rpers_t512_b3_w1600_c16; do
    if [ $v = pick ]; then unset KP_VARIANT; else export KP_VARIANT=$v; fi
    timeout $(left 540) python3 bench/side_by_side.py --ops rmsnorm_swiglu --dtypes bf16 \
      --shapes 512x199999,512x151937,1024x128257 --no-compile --reps 20 --warmup 4 \
      --json $R/pin_${v}_$round.json > $R/pin_${v}_$round.log 2>&1
    echo "== $v $round $(grep -E '^  ours' $R/pin_${v}_$round.log | cut -c1-24 | tr -s ' ' | paste -sd' ')"
  done
done
unset KP_VARIANT
lanes_finish
