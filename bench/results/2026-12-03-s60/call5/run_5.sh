#!/bin/bash
# Sixtieth session, call 5: RMSNorm+SwiGLU's persistent clusters at any
# residue with the write pass on y's 4-byte grid (`_ppers`, tuner-only):
# float64 over every `_ppers`, memcheck / racecheck over them; kp tune
# (bf16) at the odd sweep's long lengths and one aligned; pinned in turns
# against the picks.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "float64"; f64 "_ppers_|rmsnorm_f32_block_t128_v4_n1" 90
el "memcheck"; san memcheck variants_gpu "_ppers_t512_b3_w1600_c16|_ppers_t512_b4_w1216_c2|rmsnorm_f32_block_t128_v4_n1" mem.log 200
el "racecheck"; san racecheck variants_gpu "_ppers_t512_b3_w1600_c16|_ppers_t512_b4_w1216_c2|rmsnorm_f32_block_t128_v4_n1" race.log 300
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
timeout $(left 560) stdbuf -oL build/bin/kp tune -o $R/t.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 10 > $R/tune.log 2>&1; echo "tune rc=$?"
while read f r c; do
  echo "== $f $r x $c"
  grep "^$f bf16 ${r}x$c " $R/t.tune | sort -k6 -g | head -6 | awk '{printf "%s %s | ", $5, $6}'; echo
done < $R/shapes.txt
lanes_finish
