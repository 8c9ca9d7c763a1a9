#!/bin/bash
# Call 7's two runs that ran past their deadlines: racecheck over `_sk`
# (lane 0), graph_gpu (lane 1).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup
lane0() { GPU=0; san racecheck attention_gpu _sk san_race.log 320; }
lane1() { GPU=1; gpu_suite t_graph_gpu.log 200 graph_gpu; }
lane0 > $R/lane0.log 2>&1 &
lane1 > $R/lane1.log 2>&1 &
wait
cat $R/lane0.log $R/lane1.log
grep -ciE "hazard" $R/san_race.log
lanes_finish
