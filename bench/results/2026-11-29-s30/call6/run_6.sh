#!/bin/bash
# Thirtieth session, call 6: the final ranking (RMSNorm+SwiGLU's 4 rows of
# U 4 for 513-2048) under kp tune, then the whole odd sweep side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
cat > $R/shapes.txt <<'S'
rmsnorm_swiglu 131072 1001
rmsnorm_swiglu 65536 2001
S
el "tune"
timeout $(left 60) build/bin/kp tune --device 0 --families rmsnorm_swiglu \
  --dtypes bf16 --shapes $R/shapes.txt -o $R/t.tune > $R/tune.log 2>&1
echo "tune rc=$?"; grep -E "default" $R/tune.log | cut -c1-220
el "odd sweep"
timeout $(left 440) python3 bench/side_by_side.py --shapes-file bench/shapes_odd.txt \
  --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log; echo "odd rc=$?"
grep -E "^(softmax|rmsnorm|add_|rmsnorm_sw|swiglu|geglu)" $R/side_odd.log | cut -c1-150
lanes_finish
