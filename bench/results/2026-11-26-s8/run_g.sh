#!/bin/bash
# GPU call G (2026-11-26, eighth session): attention_gpu whole on the final code
# (every variant, the split-KV merge as it lands).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
GPU=0; el "attention_gpu"; gpu_suite tests_attention_gpu.log 150 attention_gpu
grep -E "^TIME" $R/tests_attention_gpu.log
lanes_finish
