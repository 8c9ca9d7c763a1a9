#!/bin/bash
# Twenty-sixth session, call 10: SwiGLU at 1-64 rows of 2048+ columns by the
# 128-thread column chunks (one load of each input a thread) instead of one
# 1024-thread block a row.  The PDL chain with the packs before it
# (build/carry/old_packs.tar.xz: call 9's) and after, the SwiGLU side by side
# at decode shapes, ops_gpu and graph_gpu.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
mkdir -p $OUT/old && tar -C $OUT/old -xJf build/carry/old_packs.tar.xz
el "pdl old"
KP_PACK_DIR=$OUT/old/packs timeout $(left 60) python3 bench/pdl_bench.py --no-compile --json $R/pdl_old.json 2>&1 | grep -vE "$F" > $R/pdl_old.log; grep -E "^ +[0-9]+ \|" $R/pdl_old.log
el "pdl new"
timeout $(left 130) python3 bench/pdl_bench.py --json $R/pdl.json 2>&1 | grep -vE "$F" > $R/pdl.log; grep -E "^ +[0-9]+ \||^tokens" $R/pdl.log
el "swiglu side by side"
timeout $(left 190) python3 bench/side_by_side.py --ops swiglu --shapes 1x4096,1x14336,16x14336,64x4096,64x14336,128x14336 \
  --json $R/side_swiglu.json 2>&1 | grep -vE "$F" > $R/side_swiglu.log; grep -E "swiglu" $R/side_swiglu.log | cut -c1-150 | tail -8
gpu_suite t_ops_gpu.log 230 ops_gpu
gpu_suite t_graph_gpu.log 260 graph_gpu
lanes_finish
