#!/bin/bash
# 41st session call 11: sanitizers over the decode's paged table change
# (7214cfe): memcheck over `_c16` (d128, d64) and `_s2_sk` (d128), racecheck
# over `_c16` d128 and `_s2_sk` d128, synccheck over `_c8` and `_s2_sk` d128
# -- both dtypes, their every-variant cases (paged pages of 16 / 7 / 48, the
# long case with the table read in place).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
el "memcheck"
san memcheck attention_gpu "d128_dec_w4x16_s3_c16|d64_dec_w4x16_s3_c16|d128_dec_w4x16_s2_sk" san_mem.log 230
grep -E ": [0-9]+ cases|ERROR SUMMARY" $R/san_mem.log | head -8
el "racecheck"
san racecheck attention_gpu "d128_dec_w4x16_s3_c16|d128_dec_w4x16_s2_sk" san_race.log 400
grep -E ": [0-9]+ cases|RACECHECK SUMMARY" $R/san_race.log | head -8
el "synccheck"
san synccheck attention_gpu "d128_dec_w4x16_s3_c8|d128_dec_w4x16_s2_sk" san_sync.log 540
grep -E ": [0-9]+ cases|ERROR SUMMARY" $R/san_sync.log | head -8
lanes_finish
