#!/bin/bash
# Twenty-second session, call 12 (one GPU): c16_order.py in three processes
# -- the batch-1 clusters' mode against the launches before each call, and
# against the context (NOTES 54 h's next experiment).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
for p in 1 2 3; do
  el "process $p"
  timeout $(left 400) python3 build/carry/c16_order.py 2>&1 | grep -vE "$F" | tee $R/order_$p.log
done
lanes_finish
