#!/bin/bash
# forty-fourth session, call 2: per-CTA trace of the d128 decode clusters
# (TRACE edit of templates/attention.lua, not landed) at batch 1 / 8
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "trace"
timeout $(left 300) python3 build/carry/trace_c16.py attention_bf16_d128_dec_w4x16_s3_c16 \
  attention_bf16_d128_dec_w4x16_s4_c16 attention_bf16_d128_dec_w8x16_s2_c16 > $R/trace.log 2>&1
echo "trace rc=$?"; cut -c1-220 $R/trace.log | head -150
lanes_finish
