#!/bin/bash
# s64 call 7: float64 over every row variant over a cluster (`_c<n>`: their
# kp_cluster_gather now waits on the cluster barrier kp_cluster_begin
# arrived at, NOTES 105), on the session's build.
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el f64; f64 '_c2|_c3|_c4|_c8|_c12|_c16' 200
grep -E "cases|FAIL|ABORT" "$R/var.log" | head -8 | cut -c1-200
lanes_finish
