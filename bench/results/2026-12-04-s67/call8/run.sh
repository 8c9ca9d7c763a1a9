#!/bin/bash
# s67 call 8: proto_grid.cu's warp-a-row kernel (rsw_gw) with a vector write
# pass for rows whose windows and y are on the 16-byte grid: aligned rows
# against odd ones (scalar write pass), the same exchange.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "probe build"
(cd build/carry && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90a -std=c++17 proto_grid.cu -o $R/proto_grid > $R/proto_build.log 2>&1; echo "nvcc rc=$?")
el "probe"
timeout $(left 200) $R/proto_grid > $R/proto.log 2>&1; echo "probe rc=$?"; cat $R/proto.log
el "library"
timeout "$(left 330)" python3 bench/side_by_side.py --ops rmsnorm_swiglu --no-compile --reps 20 \
  --shapes 512x200000,512x199999,512x151936,1024x128256,2048x50256,4096x32000,4096x18944 \
  --json "$R/lib.json" >"$R/lib.log" 2>&1
echo "lib rc=$?"; grep -E "^ *rmsnorm_swiglu " "$R/lib.log" | cut -c1-150
lanes_finish
