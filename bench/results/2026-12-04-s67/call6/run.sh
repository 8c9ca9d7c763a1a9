#!/bin/bash
# s67 call 6: proto_grid.cu: a warp a row (rsw_gw)
# any alignment, a row over GR CTAs exchanging sums through global memory many
# rows ahead; then the library's picks at the same shapes side by side.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "probe build"
(cd build/carry && /usr/local/cuda/bin/nvcc -O3 -arch=sm_90a -std=c++17 proto_grid.cu -o $R/proto_grid > $R/proto_build.log 2>&1; echo "nvcc rc=$?")
el "probe"
timeout $(left 260) $R/proto_grid > $R/proto.log 2>&1; echo "probe rc=$?"; cat $R/proto.log
lanes_finish
