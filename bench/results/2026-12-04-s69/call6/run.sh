#!/bin/bash
# s69 call 6: call 5 with the new cases made one, smaller (call 5 ran out of time:
# the every-variant f16 test alone 125.8 s) -- Lq 592 GQA causal + window_left 300.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "attention_gpu"; gpu_suite attention_gpu.log 300 attention_gpu
lanes_finish
