/*
** kp_cmds.h -- the subcommands of `kp` that live outside kp.c.
** Each takes argv with argv[0] = the subcommand and returns the exit status.
*/
#ifndef KP_CMDS_H
#define KP_CMDS_H

#include "internal.h"
#include "jit.h"

int kp_cmd_tune(int argc, char **argv);    /* kp_tune.c */
int kp_cmd_explain(int argc, char **argv); /* kp_workflow.c */
int kp_cmd_prune(int argc, char **argv);
int kp_cmd_warmup(int argc, char **argv);
int kp_cmd_merge(int argc, char **argv);

int kp_cmd_regen(int argc, char **argv);   /* kp_regen.c */

/*
** One shape of a shape list: a family, its form (kp_call.form: GeGLU's GELU,
** RoPE's layout, GEMM's B layout) and its dims in the family's order
** (KP_FAMILY_LIST: rows, cols; m, n, k, batch), unused ones 1.  line: where it
** was read (0: built in).  (kp_shapes.c)
*/
typedef struct kp_shape {
  kp_family fam;
  uint32_t form;
  int64_t dim[KPK_DIMS];
  int line;
} kp_shape;

/* The heads of kp tune's RoPE job: q (tokens, 32, head_dim), k (tokens, 8,
** head_dim); a RoPE shape's rows are the tokens, its cols head_dim = rot_dim. */
#define KP_TUNE_ROPE_HQ 32
#define KP_TUNE_ROPE_HK 8
/* Largest tensor of a built-in shape, and of any shape kp tune times, in elements */
#define KP_TUNE_BUILTIN_ELEMS (1ull << 27)
#define KP_TUNE_MAX_ELEMS (1ull << 34)

/* The forms kp tune times a shape in by default (0 .. n-1): 2 where tune.c
** names them (GeGLU, RoPE, GEMM; attention's full and causal), else 1.  A
** shape file may name another (attention's "+ws" twins). */
int kp_family_forms(kp_family fam);
/* "geglu/tanh", "gemm/nk": the family and, where it has two, the form; in buf or static */
const char *kp_fam_label(kp_family fam, uint32_t form, char *buf, size_t n);
/* Are the family's dims exactly rows, cols (what '*' in a shape file means)? */
int kp_is_row_family(kp_family fam);
/* Does the family take this dtype at all (GEMM: f16 and bf16 only)? */
int kp_shape_dtype_ok(kp_family fam, kp_dtype dt);
/* "4096x11008x4096x1": the dims joined by 'x' */
const char *kp_shape_text(const kp_shape *sh, char *out, size_t n);
/* An attention shape's KV heads: bh / g (g query heads share one). */
uint64_t kp_shape_kv_heads(const kp_shape *sh);
/* The alignment (bytes) of the call kp tune's job makes for sh: its tensors
** are packed, so the row and batch strides decide, as in the op. */
uint32_t kp_shape_align(const kp_shape *sh, kp_dtype dt);
/* The call kp tune's job makes for sh in dt (alignment included). */
kp_call kp_shape_call(const kp_shape *sh, kp_dtype dt);
/* The tuning-table key of that call into row (family, dtype, dims with pow2
** ones bucketed, align, form); variant and time left empty. */
struct kp_tune_row;
void kp_shape_key(const kp_shape *sh, kp_dtype dt, struct kp_tune_row *row);
/* Elements of the largest tensor the job allocates for sh (saturating). */
uint64_t kp_shape_elems(const kp_shape *sh);
/* Roughly what a call of sh in dt costs (bytes moved, or GEMM's and
** attention's multiply-adds / 150 where more): kp tune's queue order. */
double kp_shape_cost(const kp_shape *sh, kp_dtype dt);
/* The built-in list (row families, and GEMM: see kp_shapes.c); the count. */
int kp_builtin_shapes(kp_shape *out, int max);
/*
** Read a shape list into out: one shape per line, "FAMILY[/FORM] D1 D2 ..."
** with the family's dims in its order -- "softmax 4096 8192", "gemm 128 4096
** 4096" (m n k; a trailing batch may be left out: 1), "gemm/kn 1 4096 4096";
** a family with two forms gets a shape of each unless the line names one;
** '*' instead of a family: every row family (rows cols).  '#' starts a
** comment.  The count, or -1 after a message naming file:line.
*/
int kp_read_shapes(const char *path, kp_shape *out, int max);

/* Is name one of the comma-separated items of list (NULL: everything)? */
int kp_in_list(const char *list, const char *name);
double kp_now_s(void); /* monotonic seconds */
#include "progress.h" /* the progress line of tune, regen, warmup */

/* kp tune's timing, shared with kp regen (kp_tune.c).  A bench holds a
** stream, events and an L2-flush buffer on ctx's device. */
struct kp_tune_table;
typedef struct kp_bench kp_bench;
kp_bench *kp_bench_open(kp_ctx *ctx); /* NULL on a device error (printed) */
void kp_bench_close(kp_bench *b);
/*
** Time (median of reps, L2 flushed before each) the variants of ctx's pack
** that apply to shape sh in dtype dt (kp_shape_call) -- all of them, or
** only those named in only[0..n_only-1] -- after checking each one's output
** against the ranking's choice (ctx->tune must be NULL); rejected ones are
** counted in *rejected.  Adds one row per timed variant to t; returns how
** many, or -1 on a device error.
*/
int kp_bench_shape(kp_ctx *ctx, kp_bench *b, struct kp_tune_table *t, const kp_shape *sh,
                   kp_dtype dt, const char *const *only, int n_only, int reps, int *rejected);

#endif
