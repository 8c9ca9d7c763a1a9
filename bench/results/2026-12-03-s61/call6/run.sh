#!/bin/bash
# s61 call 6: (1) RMSNorm at odd 8193-9000, the 256 x 6 `_t` block pinned
# in turns against the `_wc` stage it does not yet displace there (NOTES
# 96's open step); (2) ncu's DRAM and SM-activity counters of the decode at
# batch 8, ours and SDPA's kernels (cuDNN 1% ahead, NOTES 98).
cd "$(dirname "$0")/../.." && . bench/lanes.sh && lanes_setup || exit 1
GPU=0
el "8193-9000 bf16"
pins lo rmsnorm bf16 16384x8193,16384x8501,16384x8999,32768x8705 2 120 \
  rmsnorm_bf16_stage_t256_v8_u2_s24_wc rmsnorm_bf16_block_t256_v8_n6_t
el "8193-9000 f16"
pins lof rmsnorm f16 16384x8193,16384x8501,16384x8999,32768x8705 1 170 \
  rmsnorm_f16_stage_t256_v8_u2_s24_wc rmsnorm_f16_block_t256_v8_n6_t
el "ncu decode batch 8"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,launch__grid_size,launch__registers_per_thread
timeout $(left 420) ncu --target-processes all --metrics $M --csv --print-units base -k "regex:^(?!.*(flush|elementwise|fill|copy|reduce)).*" \
  -c 30 python3 bench/attn_bench.py --decode-only --decode-batches 8 --decode-dims 128 --reps 2 \
  > $R/ncu_dec.csv 2> $R/ncu_dec.err
echo "ncu rc=$?"
python3 - $R/ncu_dec.csv <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
hdr = rows[0]; rows = rows[1:]
iK, iM, iV = hdr.index("Kernel Name"), hdr.index("Metric Name"), hdr.index("Metric Value")
iID = hdr.index("ID")
by = collections.OrderedDict()
for r in rows:
    by.setdefault((r[iID], r[iK][:70]), {})[r[iM]] = r[iV]
for (i, k), m in by.items():
    print(i, k, " | ".join(f"{x.split('.')[0].split('__')[-1]}{'.'+x.split('.')[-1] if 'cycles' in x else ''}={m[x]}" for x in sorted(m)))
PY
lanes_finish
