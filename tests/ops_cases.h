/*
** ops_cases.h -- one checked call of each op (check_ops_gpu.c), shared with
** check_variants_gpu.c, which runs them with every variant forced in turn.
** Each case makes its tensors, computes the float64 reference, calls the op
** through g->ctx on g->stream and records any mismatch in g.
*/
#ifndef KP_TEST_OPS_CASES_H
#define KP_TEST_OPS_CASES_H

#include "gpu_harness.h"

/* ldx = cols + padx, ldy = cols + pady; offx/offy shift the base pointers
** by that many elements (1: no longer 16-byte aligned). */
typedef struct shape {
  int64_t rows, cols;
  int padx, pady, offx, offy;
} shape;

enum { ANG_TABLE, ANG_TOKEN, ANG_POSITIONS }; /* cos/sin given; pos = token; pos = positions[t] */
enum { ST_CONTIG, ST_FUSED_QKV, ST_PAD_UNALIGNED, ST_PAD_ALIGNED };

typedef struct rope_cfg {
  int64_t tokens, hq, hk, hd, rot, cs_pad;
  int angle, strides;
  float theta;
} rope_cfg;

/* The ops, for op_tol: the error bound of each (relative to the row's
** largest |reference|; check_ops_gpu.c). */
enum { OP_SOFTMAX, OP_RMSNORM, OP_ADD_RMSNORM, OP_SWIGLU, OP_GEGLU, OP_RMSNORM_SWIGLU, OP_ROPE,
       OP_COUNT_ };
double op_tol(int op, kp_dtype dt);

void softmax_case(gpu *g, kp_dtype dt, int64_t rows, int64_t cols, int64_t ldx, int64_t ldy,
                  int64_t offx, int64_t offy, int inplace, int special);
void rmsnorm_case(gpu *g, kp_dtype dt, const shape *s);
void add_rmsnorm_case(gpu *g, kp_dtype dt, const shape *s);
/* a: 0 swiglu, 1 geglu (erf), 2 geglu (tanh); fused: gate and up halves of one tensor */
void glu_case(gpu *g, kp_dtype dt, int a, const shape *s, int fused);
void rmsnorm_swiglu_case(gpu *g, kp_dtype dt, const shape *s);
void rope_case(gpu *g, kp_dtype dt, kp_rope_layout layout, const rope_cfg *c);

#endif
