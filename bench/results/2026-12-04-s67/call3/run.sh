#!/bin/bash
# s67 call 3: proto_grid.cu (bench/results/next/): RMSNorm+SwiGLU's long rows at
# any alignment, a row over GR CTAs exchanging sums through global memory many
# rows ahead; then the library's picks at the same shapes side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "probe build"
(cd build/carry && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90a -std=c++17 proto_grid.cu -o $R/proto_grid > $R/proto_build.log 2>&1; echo "nvcc rc=$?")
el "probe"
timeout $(left 260) $R/proto_grid > $R/proto.log 2>&1; echo "probe rc=$?"; cat $R/proto.log
el "library"
timeout "$(left 420)" python3 bench/side_by_side.py --ops rmsnorm_swiglu --no-compile --reps 20 \
  --shapes 512x199999,512x200000,512x151937,1024x128257,2048x50257,4096x32001,4096x18943,8192x16385 \
  --json "$R/lib.json" >"$R/lib.log" 2>&1
echo "lib rc=$?"; grep -E "^ *rmsnorm_swiglu " "$R/lib.log" | cut -c1-150
lanes_finish
