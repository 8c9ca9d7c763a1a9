#!/bin/bash
# s39 call 3: the GEMV, cuBLAS, and the _clk (no compute, no stores) / _clks (stores) / _clkc (compute, no stores) / _clkl (loads, no mma)
# twins in turn, each rep (bench/gemv_clk.py)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "clk"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemv_clk.py --reps 9 --variants n128_s5,n64_s5,n128_s10 > $R/clk.log 2>&1
echo "clk rc=$?"; cat $R/clk.log | cut -c1-150
lanes_finish
