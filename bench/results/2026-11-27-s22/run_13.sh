#!/bin/bash
# Twenty-second session, call 13 (the same warm H100 as call 12): the
# batch-1 clusters' mode against the allocation of q, k, v (c16_alloc.py,
# two processes).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for p in 1 2 3; do
  timeout $(left 300) python3 build/carry/c16_alloc.py 2>&1 | grep -vE "$F" | tee $R/alloc_$p.log
done
lanes_finish
