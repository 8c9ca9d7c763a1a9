#!/bin/bash
# forty-sixth session, call 3: a 1-d TMA probe (build/carry/tmaprobe, built
# from tma_probe.cu beside this script with nvcc -arch=sm_90a ... -lcuda):
# which box / size / coordinate faults (output: probe.log)
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
P=build/carry/tmaprobe; chmod +x $P
for a in "24576 256 0 4" "24574 256 0 4" "24574 256 24000 4" "24576 256 12287 4" "24576 128 3 4" \
         "24576 256 30000 2" "24576 256 12287 4 0" "100000 256 99999 1" "24574 256 12287 48" "24574 256 -5 2"; do
  timeout 20 $P $a
done
lanes_finish
