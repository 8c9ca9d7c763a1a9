#!/bin/bash
# forty-fourth session, call 10: the SM clock of the split-KV decode's
# merging CTAs (clock64 against %globaltimer; CLOCK TRACE edit, not landed)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "clock"
timeout $(left 200) python3 build/carry/clock_sk.py attention_bf16_d128_dec_w4x16_s2_sk > $R/clock.log 2>&1
echo "clock rc=$?"; cut -c1-200 $R/clock.log | head -60
lanes_finish
