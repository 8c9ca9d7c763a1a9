#!/bin/bash
# fifty-eighth session, call 3: RMSNorm at 131072 rows of (cols, ld) pairs
# that part the rows' starts off the grid from the odd length
# (call3/ld_probe.py); add_end_j side by side in f16; kp tune of
# RMSNorm+SwiGLU at the odd sweep's 4097-18943
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
old_pack || exit 1
GPU=0
el "probe"
timeout $(left 150) python3 bench/results/2026-12-02-s58/call3/ld_probe.py > $R/probe.log 2>&1; echo "probe rc=$?"
grep -vE "$F" $R/probe.log | tail -8
el "ab add f16"
ab abadd16 add_rmsnorm f16 512x151937,512x199999 1 220
el "tune"
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 16384 4097
rmsnorm_swiglu 8192 11007
rmsnorm_swiglu 4096 18943
S
timeout $(left 420) stdbuf -oL build/bin/kp tune -o $R/rsw.tune --dtypes bf16 --shapes $R/shapes.txt \
  --reps 15 --time-budget 150 > $R/tune.log 2>&1; echo "tune rc=$?"
grep -E "default .* best" $R/tune.log | cut -c1-220
grep -v '^#' $R/shapes.txt | while read f r c; do echo "== $f $r x $c"; grep "^$f bf16 ${r}x$c " $R/rsw.tune | sort -k6 -g | head -6 | awk '{print $5, $6}'; done
lanes_finish
