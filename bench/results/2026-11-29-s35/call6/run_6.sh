#!/bin/bash
# Thirty-fifth session, call 6: RMSNorm+SwiGLU side by side at the odd
# sweep's long lengths (its 40961-51200 pick of item 68 for the first time).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 4096 32001
rmsnorm_swiglu 2048 50257
rmsnorm_swiglu 512 151937
S
timeout $(left 150) python3 bench/side_by_side.py --ops rmsnorm_swiglu --shapes-file $R/shapes.txt \
  --json $R/side_sw.json 2>&1 | grep -vE "$F" > $R/side_sw.log; echo "side rc=$?"
grep -E "^rmsnorm_sw" $R/side_sw.log | cut -c1-150
lanes_finish
