#!/bin/bash
# forty-fourth session, call 6: the split-KV decode's tail at batch 1, traced
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "trace"
timeout $(left 250) python3 build/carry/trace_c16.py attention_bf16_d128_dec_w4x16_s2_sk > $R/trace.log 2>&1
echo "trace rc=$?"; grep -E "^attention|Q\+tile0|loopend|^  end|SMs [0-9]|^    " $R/trace.log | cut -c1-160
lanes_finish
