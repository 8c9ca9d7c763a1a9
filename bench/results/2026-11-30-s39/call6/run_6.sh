#!/bin/bash
# s39 call 6: the TMA GEMV's epilogue stamped (staged, stored)
# twins in turn, each rep (bench/gemv_clk.py)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "clk"
CUDA_VISIBLE_DEVICES=0 timeout $(left 200) python3 bench/gemv_clk.py --reps 9 --variants n128_s5,n64_s5 --shapes "1,11008,4096;1,8448,4096" > $R/clk.log 2>&1
echo "clk rc=$?"; cat $R/clk.log | cut -c1-150
lanes_finish
