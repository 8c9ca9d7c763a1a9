#!/bin/bash
# Twenty-sixth session, call 9 (an H200): issue 14 part 2's chain (RMSNorm ->
# SwiGLU -> RoPE of a decode step from a CUDA graph, with and without PDL,
# eager and torch.compile) on an H200; the H100 numbers are the tenth /
# eleventh sessions'.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0
el "pdl"
timeout $(left 230) python3 bench/pdl_bench.py --json $R/pdl.json 2>&1 | grep -vE "$F" | tee $R/pdl.log | tail -20
lanes_finish
