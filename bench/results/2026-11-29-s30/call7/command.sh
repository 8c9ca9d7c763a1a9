cd . && . bench/lanes.sh && lanes_setup >/dev/null && GPU=0 && gpu_suite var_all.log 170 variants_gpu && gpu_suite ops.log 230 ops_gpu && gpu_suite graph.log 280 graph_gpu && lanes_finish
