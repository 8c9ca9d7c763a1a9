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

/* One (family, rows, cols, form) of a shape list; line: where it was read
** (0: built in); form: kp_call.form (GeGLU's GELU, RoPE's layout). */
typedef struct kp_shape {
  kp_family fam;
  int64_t dim[4]; /* the family's dimensions in its order: rows, cols | m, n, k, batch */
  int line;
  uint32_t form;
} kp_shape;
/* "4096x8192" / "128x4096x4096x1": the shape's dimensions, in buf */
const char *kp_shape_text(const kp_shape *sh, char *buf, size_t n);

/* How many forms a family's calls come in (kp_call.form 0..n-1): 2 for
** GeGLU and RoPE, else 1. */
int kp_family_forms(kp_family fam);
/* "geglu/tanh": the family and, where it has two, the form; in buf or static */
const char *kp_fam_label(kp_family fam, uint32_t form, char *buf, size_t n);
/* Read a shape list ("family rows cols" lines, '*' for every family, '#'
** comments; a family with two forms gets a shape of each) into out; the
** count, or -1 after a message naming file:line. */
int kp_read_shapes(const char *path, kp_shape *out, int max);   /* kp_tune.c */

/* Is name one of the comma-separated items of list (NULL: everything)? */
int kp_in_list(const char *list, const char *name);
double kp_now_s(void); /* monotonic seconds */
void kp_fmt_eta(double s, char *out, size_t n); /* "42s", "3m07s", "--" */

/* kp tune's timing, shared with kp regen (kp_tune.c).  A bench holds a
** stream, events and an L2-flush buffer on ctx's device. */
struct kp_tune_table;
typedef struct kp_bench kp_bench;
kp_bench *kp_bench_open(kp_ctx *ctx); /* NULL on a device error (printed) */
void kp_bench_close(kp_bench *b);
/*
** Time (median of reps, L2 flushed before each) the variants of ctx's pack
** that apply to (fam, dt, rows x cols, form) at alignment 16 -- all of them, or
** only those named in only[0..n_only-1] -- after checking each one's output
** against the ranking's choice (ctx->tune must be NULL); rejected ones are
** counted in *rejected.  Adds one row per timed variant to t; returns how
** many, or -1 on a device error.
*/
int kp_bench_shape(kp_ctx *ctx, kp_bench *b, struct kp_tune_table *t, kp_family fam, kp_dtype dt,
                   int64_t rows, int64_t cols, uint32_t form, const char *const *only, int n_only, int reps,
                   int *rejected);

#endif
