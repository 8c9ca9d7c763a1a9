#!/bin/bash
# Thirty-fourth session, call 6: the fewer-threads staged picks (rmsnorm
# 4097-4608 and 40961-51200, softmax 40961-51200 and 131073-204800,
# add_rmsnorm 4097-4608 and 8193-11264; odd 16-bit rows, sm_90a) --
# ops_gpu, graph_gpu, the odd sweep side by side, sanitizers over them.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
gpu_suite ops.log 60 ops_gpu
gpu_suite graph.log 100 graph_gpu
el "side odd"
timeout $(left 200) python3 bench/side_by_side.py --ops softmax,rmsnorm,add_rmsnorm \
  --shapes-file bench/shapes_odd.txt --json $R/side_odd.json 2>&1 | grep -vE "$F" > $R/side_odd.log
echo "side_odd rc=$?"
grep -E "^(softmax|rmsnorm|add_rms)" $R/side_odd.log | cut -c1-150
ONLY='stage_t128_v8_u2_s9|stage_t256_v8_u2_s25_c4|stage_t128_v8_u4_s25_c4|stage_t256_v8_u2_s38_c8|stage_t256_v8_u2_s50_c8|stage_t128_v8_u2_s22'
san memcheck variants_gpu "$ONLY" mem.log 280
san racecheck variants_gpu "$ONLY" race.log 380
lanes_finish
