/*
** kp_regen.c -- `kp regen`: grow a pack around a tuning table's winners.
**
** A round asks the generator (`kpgen neighbours`) for the variants one step
** from each key's winner in its template's variant space (family_space{}),
** compiles the new ones for the pack's target (`kpgen compile`, in
** parallel), writes the old entries plus them as a pack (`kpgen extend`,
** ranked below every default, so without a table the ranking's picks never
** change), and re-times exactly the table's keys over winner + neighbours
** (+ the table's variants within 3% of the winner) with kp tune's machinery (outputs checked against the default variant's).
** Keys whose best time improved by more than 1% go on to the next round with
** their new winner; the loop ends when none did, after --rounds, or at
** --time-budget.  The generator runs as a subprocess (beside kp, or
** $KP_KPGEN), so kp itself needs neither Lua nor NVRTC.
*/
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jit.h" /* kp_mkdirs */
#include "kp_cmds.h"
#include "tune.h"

#define IMPROVEMENT 0.99 /* a neighbour must beat the winner by more than 1% */
#define CLOSE 1.03       /* table rows within 3% of the winner's time are re-timed too */

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("kp regen: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return -1;
}

static const char usage_regen[] =
    "usage: kp regen TABLE --pack PACK -o NEWPACK [--table-out NEWTABLE]\n"
    "                [--time-budget S] [--rounds N] [--families a,b] [--dtypes bf16,...]\n"
    "                [--device N] [--reps N] [--jobs N] [--templates DIR] [--workdir DIR]\n"
    "                [--dry-run] [-q]\n"
    "Search the template variant space around TABLE's winners.  Each round asks\n"
    "kpgen for the neighbours of every key's winner (next/previous threads, vectors\n"
    "per thread, vector width, ...: each template declares them), compiles the new\n"
    "ones for PACK's target, re-times the key over winner + neighbours on GPU N\n"
    "(outputs checked against the default variant), and goes on from the keys\n"
    "that improved by more than 1%, for at most N rounds (default 3) and S seconds\n"
    "in all.  Writes NEWPACK (PACK's entries plus the neighbours, ranked below\n"
    "every default: without a table nothing changes) and the table with the new\n"
    "measurements (default: <target>.<device>.tune beside NEWPACK, where the\n"
    "runtime finds it).  Only keys measured at alignment 16 (kp tune's) are\n"
    "searched.  --dry-run does one round of generation, compilation and packing\n"
    "without a GPU and writes NEWPACK.  Templates: --templates, $KP_TEMPLATE_DIR,\n"
    "or templates/ of the source tree kp was built in; kpgen: $KP_KPGEN or beside\n"
    "kp.  Work files go to --workdir (default NEWPACK.d).  Progress (done/total,\n"
    "elapsed, ETA, what runs) goes to stderr: one line on a terminal, plain lines\n"
    "in a log; -q leaves it out.\n";

typedef struct regen_opts {
  const char *table, *pack, *out, *table_out, *families, *dtypes, *templates, *workdir;
  double budget_s;
  int rounds, reps, device, jobs, dry_run, quiet;
} regen_opts;

/* One key of the table being searched: its shape and its best variant so far. */
typedef struct rkey {
  kp_family fam;
  kp_dtype dt;
  uint64_t dim[KPK_DIMS]; /* the table's key: pow2 dims as their bucket, timed as that many */
  char winner[128];
  double us;
  int active, improved;
  uint32_t form;       /* kp_call.form: GeGLU's GELU, RoPE's layout, GEMM's B layout */
} rkey;

/* A winner's neighbours, as kpgen named them. */
typedef struct rwin {
  char name[128];
  char **nb;
  int n_nb;
} rwin;

typedef struct regen {
  regen_opts o;
  char kpgen[PATH_MAX], tpldir[PATH_MAX], work[PATH_MAX], cur[PATH_MAX];
  char target[16];
  kp_tune_table t;
  rkey *keys;
  int n_keys;
  rwin *wins;
  int n_wins;
  char **fresh; /* new variants of this round, to compile and pack */
  int n_fresh;
  int no_space[KP_FAM_COUNT]; /* the family's template declares no variant space */
  double t0;
} regen;

/* ---- options and inputs ----------------------------------------------------- */

/* 0, or nonzero after saying what is wrong (a usage error). */
static int parse(int argc, char **argv, regen_opts *o) {
  memset(o, 0, sizeof *o);
  o->rounds = 3;
  o->reps = 15;
  o->budget_s = 1e9;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = ncpu > 0 ? (int)ncpu : 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && (i++, 1))
    if (OPT("--pack")) o->pack = v;
    else if (OPT("-o")) o->out = v;
    else if (OPT("--table-out")) o->table_out = v;
    else if (OPT("--time-budget")) o->budget_s = atof(v);
    else if (OPT("--rounds")) o->rounds = atoi(v);
    else if (OPT("--families")) o->families = v;
    else if (OPT("--dtypes")) o->dtypes = v;
    else if (OPT("--device")) o->device = atoi(v);
    else if (OPT("--reps")) o->reps = atoi(v);
    else if (OPT("--jobs")) o->jobs = atoi(v);
    else if (OPT("--templates")) o->templates = v;
    else if (OPT("--workdir")) o->workdir = v;
    else if (!strcmp(a, "--dry-run")) o->dry_run = 1;
    else if (!strcmp(a, "-q")) o->quiet = 1;
    else if (a[0] != '-' && !o->table) o->table = a;
    else return fprintf(stderr, "kp regen: unknown or incomplete option '%s'\n%s", a, usage_regen);
#undef OPT
  }
  if (!o->table || !o->pack || !o->out)
    return fprintf(stderr, "kp regen: TABLE, --pack and -o are required\n%s", usage_regen);
  if (o->rounds < 1 || o->jobs < 1 || o->budget_s <= 0)
    return fail("--rounds, --jobs and --time-budget must be positive");
  return 0;
}

static int exe_dir(char *out, size_t n) {
  ssize_t len = readlink("/proc/self/exe", out, n - 1);
  if (len <= 0) return -1;
  out[len] = 0;
  char *slash = strrchr(out, '/');
  if (!slash) return -1;
  *slash = 0;
  return 0;
}

static int is_file(const char *p, int mode) { return access(p, mode) == 0; }

/* kpgen: $KP_KPGEN, else beside kp; the templates: --templates,
** $KP_TEMPLATE_DIR, else <kp dir>/../../templates (build/bin/kp in the tree). */
static int find_tools(regen *r) {
  char bin[PATH_MAX - 64], p[PATH_MAX];
  const char *env = getenv("KP_KPGEN");
  if (exe_dir(bin, sizeof bin)) return fail("cannot locate the kp binary");
  snprintf(r->kpgen, sizeof r->kpgen, "%s", env && *env ? env : "");
  if (!r->kpgen[0]) snprintf(r->kpgen, sizeof r->kpgen, "%s/kpgen", bin);
  if (!is_file(r->kpgen, X_OK))
    return fail("%s: no generator there (build it with make, or set $KP_KPGEN)", r->kpgen);
  const char *dir = r->o.templates ? r->o.templates : getenv("KP_TEMPLATE_DIR");
  if (dir && *dir) snprintf(r->tpldir, sizeof r->tpldir, "%s", dir);
  else snprintf(r->tpldir, sizeof r->tpldir, "%s/../../templates", bin);
  snprintf(p, sizeof p, "%s/kp_device.cuh", r->tpldir);
  if (!is_file(p, R_OK))
    return fail("%s: no templates there (no kp_device.cuh); give --templates DIR", r->tpldir);
  return 0;
}

static int pack_find(const kpk_pack *pk, const char *name) {
  for (uint32_t i = 0; i < pk->n_entries; i++)
    if (!strcmp(pk->entries[i].name, name)) return (int)i;
  return -1;
}

/* A key's shape, as kp tune's jobs time it (pow2 dims at their bucket). */
static kp_shape key_shape(kp_family fam, const uint64_t dim[KPK_DIMS], uint32_t form) {
  kp_shape sh;
  memset(&sh, 0, sizeof sh);
  sh.fam = fam;
  sh.form = form;
  for (int i = 0; i < KPK_DIMS; i++) sh.dim[i] = (int64_t)dim[i];
  return sh;
}

/* Keys whose largest tensor is bigger are not re-timed (minutes of host-side
** data per candidate) */
#define REGEN_MAX_ELEMS (1ull << 28)

/* Does table row `row` belong to key k? */
static int row_of(const kp_tune_row *row, const rkey *k) {
  return row->dtype == k->dt && !memcmp(row->dim, k->dim, sizeof k->dim) && row->form == k->form &&
         row->align == 16 && !strcmp(row->family, kp_family_name(k->fam));
}

/* The keys to search: every (family, dtype, shape, 16, form) of the table
** that passes the filters, with its best row whose variant is in the pack. */
static int collect_keys(regen *r, const kpk_pack *pk) {
  const kp_tune_table *t = &r->t;
  r->keys = calloc(t->n ? t->n : 1, sizeof *r->keys);
  if (!r->keys) return -1;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *row = &t->rows[i];
    int fam = kp_family_from_name(row->family);
    if (fam < 0 || row->align != 16 || !kp_in_list(r->o.families, row->family) ||
        !kp_in_list(r->o.dtypes, kp_dtype_name(row->dtype)))
      continue;
    if (pack_find(pk, row->variant) < 0) {
      fprintf(stderr, "kp regen: %s:%d: %s is not in %s: row ignored\n", t->path, row->line,
              row->variant, pk->path);
      continue;
    }
    kp_shape sh = key_shape((kp_family)fam, row->dim, row->form);
    if (kp_shape_elems(&sh) > REGEN_MAX_ELEMS) {
      char shape[96];
      fprintf(stderr, "kp regen: %s:%d: %s %s is too large to re-time here (a tensor of more than "
              "%llu elements): row ignored\n", t->path, row->line, row->family,
              kp_shape_text(&sh, shape, sizeof shape), (unsigned long long)REGEN_MAX_ELEMS);
      continue;
    }
    if (!kp_shape_dtype_ok((kp_family)fam, row->dtype)) {
      fprintf(stderr, "kp regen: %s:%d: %s takes no %s inputs: row ignored\n", t->path, row->line,
              row->family, kp_dtype_name(row->dtype));
      continue;
    }
    rkey *k = NULL;
    for (int j = 0; j < r->n_keys && !k; j++)
      if ((int)r->keys[j].fam == fam && r->keys[j].dt == row->dtype &&
          !memcmp(r->keys[j].dim, row->dim, sizeof row->dim) && r->keys[j].form == row->form)
        k = &r->keys[j];
    if (!k) {
      k = &r->keys[r->n_keys++];
      memset(k, 0, sizeof *k);
      k->fam = (kp_family)fam, k->dt = row->dtype, k->form = row->form, k->active = 1;
      memcpy(k->dim, row->dim, sizeof k->dim);
    }
    if (!k->winner[0] || row->us < k->us) {
      snprintf(k->winner, sizeof k->winner, "%s", row->variant);
      k->us = row->us;
    }
  }
  if (!r->n_keys)
    return fail("%s: no keys to search (alignment 16, winner in %s%s)", t->path, pk->path,
                r->o.families || r->o.dtypes ? ", in --families/--dtypes" : "");
  for (int j = 0; j < r->n_keys; j++) {
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s.lua", r->tpldir, kp_family_name(r->keys[j].fam));
    if (!is_file(p, R_OK)) return fail("%s: cannot read the template", p);
  }
  return 0;
}

/* Everything that can be checked without a GPU: table, pack, tools, keys. */
static int validate(regen *r) {
  char err[800];
  kpk_pack pk;
  if (kp_tune_load(&r->t, r->o.table, err, sizeof err) != KP_OK) return fail("%s", err);
  if (kpk_open(&pk, r->o.pack, err, sizeof err) != KP_OK) {
    kpk_close(&pk);
    return fail("%s", err);
  }
  int rc = 0;
  snprintf(r->target, sizeof r->target, "%s", pk.target);
  if (r->t.pack_target[0] && strcmp(r->t.pack_target, "-") && strcmp(r->t.pack_target, pk.target))
    rc = fail("%s was measured with a pack for %s; %s is for %s", r->o.table, r->t.pack_target,
              r->o.pack, pk.target);
  if (!rc) rc = find_tools(r);
  if (!rc) rc = collect_keys(r, &pk);
  kpk_close(&pk);
  return rc;
}

/* ---- running the generator ------------------------------------------------- */

/* Run argv; its stdout into *out (malloc'd) when out is not NULL, stderr
** into file errpath when that is not NULL, else passed through.  Returns the
** exit status, or -1 if it could not run. */
static int run_err(char *const argv[], char **out, const char *errpath) {
  int fd[2];
  if (out && pipe(fd)) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (out) dup2(fd[1], 1), close(fd[0]), close(fd[1]);
    if (errpath && !freopen(errpath, "w", stderr)) _exit(127);
    execv(argv[0], argv);
    fprintf(stderr, "kp regen: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  size_t n = 0, cap = 4096;
  char *buf = out ? malloc(cap) : NULL;
  if (out) {
    close(fd[1]);
    ssize_t got;
    while (buf && (got = read(fd[0], buf + n, cap - n - 1)) > 0) {
      n += (size_t)got;
      if (cap - n < 2) {
        char *nb = realloc(buf, cap *= 2);
        if (!nb) free(buf);
        buf = nb;
      }
    }
    close(fd[0]);
    if (buf) buf[n] = 0;
    *out = buf;
  }
  int st;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(char *const argv[], char **out) { return run_err(argv, out, NULL); }

static int add_name(char ***list, int *n, const char *name) {
  for (int i = 0; i < *n; i++)
    if (!strcmp((*list)[i], name)) return 0;
  char **nl = realloc(*list, (size_t)(*n + 1) * sizeof *nl);
  if (!nl || !(nl[*n] = strdup(name))) return -1;
  *list = nl;
  (*n)++;
  return 0;
}

static void free_names(char **list, int n) {
  for (int i = 0; i < n; i++) free(list[i]);
  free(list);
}

/* The text of a (small) file, malloc'd, or NULL. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  char *buf = f ? malloc(65536) : NULL;
  size_t n = buf ? fread(buf, 1, 65535, f) : 0;
  if (buf) buf[n] = 0;
  if (f) fclose(f);
  return buf;
}

/* What kpgen says of a template without family_space{} (gen/space.c) */
#define NO_SPACE "declares no family_space{}"

/* kpgen neighbours for one winner: its neighbours' names, and the new ones
** (sources written to work/src) added to r->fresh.  A family whose template
** declares no variant space (GEMM's, so far) has no neighbours: its keys are
** re-timed over the table's close competitors only (said once per family). */
static int neighbours(regen *r, rwin *w, kp_family fam) {
  char tpl[PATH_MAX + 32], src[PATH_MAX + 8], errf[PATH_MAX + 16], *out = NULL;
  snprintf(tpl, sizeof tpl, "%s/%s.lua", r->tpldir, kp_family_name(fam));
  snprintf(src, sizeof src, "%s/src", r->work);
  snprintf(errf, sizeof errf, "%s/kpgen.err", r->work);
  if (r->no_space[fam]) return 0;
  char *argv[] = {r->kpgen, "neighbours", tpl, w->name, src, r->cur, NULL};
  int st = run_err(argv, &out, errf);
  char *msg = slurp(errf);
  remove(errf);
  if (st == 1 && msg && strstr(msg, NO_SPACE)) {
    fprintf(stderr, "kp regen: %s declares no variant space (family_space{}): %s keys are "
            "re-timed over the table's variants within %.0f%% of the winner only\n", tpl,
            kp_family_name(fam), (CLOSE - 1) * 100);
    r->no_space[fam] = 1;
    free(msg);
    free(out);
    return 0;
  }
  if (msg) fputs(msg, stderr);
  free(msg);
  if (st != 0 || !out) {
    free(out);
    return fail("kpgen neighbours %s %s failed (above)", tpl, w->name);
  }
  int rc = 0;
  for (char *line = strtok(out, "\n"); line && !rc; line = strtok(NULL, "\n")) {
    char name[128], what[16];
    if (sscanf(line, "%127s %15s", name, what) != 2) continue;
    rc = add_name(&w->nb, &w->n_nb, name);
    if (!rc && !strcmp(what, "new")) rc = add_name(&r->fresh, &r->n_fresh, name);
  }
  free(out);
  return rc;
}

static rwin *win_of(const regen *r, const char *name) {
  for (int i = 0; i < r->n_wins; i++)
    if (!strcmp(r->wins[i].name, name)) return &r->wins[i];
  return NULL;
}

/* Neighbours of every active key's winner (each winner asked once). */
static int ask_generator(regen *r, int round) {
  int n = 0;
  for (int k = 0; k < r->n_keys; k++) {
    rkey *key = &r->keys[k];
    if (!key->active || win_of(r, key->winner)) continue;
    rwin *nw = realloc(r->wins, (size_t)(r->n_wins + 1) * sizeof *nw);
    if (!nw) return -1;
    r->wins = nw;
    rwin *w = &r->wins[r->n_wins++];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", key->winner);
    if (neighbours(r, w, key->fam)) return -1;
    n++;
  }
  fprintf(stderr, "kp regen: round %d: %d winners, %d new neighbours to compile for %s\n", round,
          n, r->n_fresh, r->target);
  return 0;
}

static double mtime(const char *p) {
  struct stat st;
  return stat(p, &st) ? -1 : (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9;
}

/* kpgen compile for every new variant not compiled yet, --jobs at a time;
** one that fails is left out of the pack (the generator said why). */
static int compile_fresh(regen *r, int round) {
  pid_t *pids = calloc((size_t)r->o.jobs, sizeof *pids);
  int *which = calloc((size_t)r->o.jobs, sizeof *which);
  int *bad = calloc((size_t)r->n_fresh + 1, sizeof *bad);
  if (!pids || !which || !bad) return free(pids), free(which), free(bad), -1;
  int next = 0, running = 0, done = 0;
  char title[48];
  snprintf(title, sizeof title, "kp regen: round %d: compiling", round);
  kp_progress prog;
  kp_progress_init(&prog, stderr, title, r->n_fresh, r->o.quiet);
  prog.log_every_s = 10; /* a log gets a line now and then */
  while (next < r->n_fresh || running) {
    while (running < r->o.jobs && next < r->n_fresh) {
      char src[PATH_MAX + 200], base[PATH_MAX + 200], info[PATH_MAX + 210];
      snprintf(src, sizeof src, "%s/src/%s.cu", r->work, r->fresh[next]);
      snprintf(base, sizeof base, "%s/obj/%s", r->work, r->fresh[next]);
      snprintf(info, sizeof info, "%s.info", base);
      if (mtime(info) >= mtime(src) && mtime(src) > 0) { /* compiled in an earlier run */
        next++, done++;
        continue;
      }
      int slot = 0;
      while (pids[slot]) slot++;
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0) {
        char *argv[] = {r->kpgen, "compile", src, r->target, base, NULL};
        execv(argv[0], argv);
        _exit(127);
      }
      if (pid < 0) break;
      pids[slot] = pid, which[slot] = next++, running++;
    }
    if (!running) break;
    int st;
    pid_t pid = wait(&st);
    if (pid < 0) break;
    const char *last = "";
    for (int s = 0; s < r->o.jobs; s++)
      if (pids[s] == pid) {
        pids[s] = 0, running--, done++;
        last = r->fresh[which[s]];
        if (!WIFEXITED(st) || WEXITSTATUS(st)) bad[which[s]] = 1;
      }
    kp_progress_show(&prog, done, "%s/%s", r->target, last);
  }
  kp_progress_break(&prog);
  int k = 0; /* keep the ones that compiled */
  for (int i = 0; i < r->n_fresh; i++) {
    if (bad[i]) {
      fprintf(stderr, "kp regen: %s did not compile: left out\n", r->fresh[i]);
      free(r->fresh[i]);
    } else {
      r->fresh[k++] = r->fresh[i];
    }
  }
  r->n_fresh = k;
  free(pids), free(which), free(bad);
  return 0;
}

/* kpgen extend: r->cur plus this round's new variants -> work/round<N>.kpk. */
static int extend(regen *r, int round) {
  if (!r->n_fresh) return 0;
  char next[PATH_MAX + 32], obj[PATH_MAX + 8];
  snprintf(next, sizeof next, "%s/round%d.kpk", r->work, round);
  snprintf(obj, sizeof obj, "%s/obj", r->work);
  char **argv = calloc((size_t)r->n_fresh + 8, sizeof *argv);
  char **srcs = calloc((size_t)r->n_fresh + 1, sizeof *srcs);
  int rc = argv && srcs ? 0 : -1;
  for (int i = 0; i < r->n_fresh && !rc; i++) {
    size_t n = strlen(r->work) + strlen(r->fresh[i]) + 16;
    if (!(srcs[i] = malloc(n))) rc = -1;
    else snprintf(srcs[i], n, "%s/src/%s.cu", r->work, r->fresh[i]);
  }
  if (!rc) {
    int a = 0;
    argv[a++] = r->kpgen, argv[a++] = "extend", argv[a++] = r->cur, argv[a++] = next;
    argv[a++] = r->tpldir, argv[a++] = obj;
    for (int i = 0; i < r->n_fresh; i++) argv[a++] = srcs[i];
    argv[a] = NULL;
    if (run(argv, NULL) != 0) rc = fail("kpgen extend failed (above)");
  }
  if (!rc) snprintf(r->cur, sizeof r->cur, "%s", next);
  for (int i = 0; srcs && i < r->n_fresh; i++) free(srcs[i]);
  free(srcs);
  free(argv);
  free_names(r->fresh, r->n_fresh);
  r->fresh = NULL;
  r->n_fresh = 0;
  return rc;
}

/* ---- timing ---------------------------------------------------------------- */

static int listed(const char **c, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(c[i], name)) return 1;
  return 0;
}

/* Winner + its neighbours that made it into the pack + the table's close
** competitors for the key (variants within CLOSE of the winner's recorded
** time): re-timed in the same session as the winner, so that the table's
** best row after the round is the round's winner, not an older, luckier
** time of a variant the round did not measure. */
static int candidates(const regen *r, const rkey *k, const kpk_pack *pk, const char **c, int max) {
  const rwin *w = win_of(r, k->winner);
  int n = 0;
  c[n++] = k->winner;
  for (int i = 0; w && i < w->n_nb && n < max; i++)
    if (pack_find(pk, w->nb[i]) >= 0 && !listed(c, n, w->nb[i])) c[n++] = w->nb[i];
  for (size_t i = 0; i < r->t.n && n < max; i++) {
    const kp_tune_row *row = &r->t.rows[i];
    if (row_of(row, k) && row->us <= k->us * CLOSE && pack_find(pk, row->variant) >= 0 &&
        !listed(c, n, row->variant))
      c[n++] = row->variant;
  }
  return n;
}

/* The best time this round's table holds for key k, and which variant. */
static double best_in(const kp_tune_table *t, const rkey *k, const char *only, const char **name) {
  double best = -1;
  for (size_t i = 0; i < t->n; i++) {
    const kp_tune_row *row = &t->rows[i];
    if (!row_of(row, k) || (only && strcmp(row->variant, only))) continue;
    if (best < 0 || row->us < best) best = row->us, *name = row->variant;
  }
  return best;
}

/* One key: time the candidates; a neighbour more than 1% faster than the
** winner (both measured now) becomes the winner.  -1 on a device error. */
static int time_key(regen *r, kp_ctx *ctx, kp_bench *b, rkey *k, kp_tune_table *rt, int *rejected) {
  const char *c[256], *wname = NULL, *bname = NULL; /* wname: only whether measured */
  int nc = candidates(r, k, &ctx->pack, c, 256);
  kp_shape sh = key_shape(k->fam, k->dim, k->form);
  if (kp_bench_shape(ctx, b, rt, &sh, k->dt, c, nc, r->o.reps, rejected) < 0) return -1;
  double wus = best_in(rt, k, k->winner, &wname), bus = best_in(rt, k, NULL, &bname);
  char label[48], shape[96];
  const char *fam = kp_fam_label(k->fam, k->form, label, sizeof label), *dt = kp_dtype_name(k->dt);
  kp_shape_text(&sh, shape, sizeof shape);
  if (wus < 0) { /* rejected or failed now (said above): nothing to compare with */
    printf("%-15s %-4s %-17s %-36s could not be timed: key left as it was\n", fam, dt, shape,
           k->winner);
  } else if (strcmp(bname, k->winner) && bus < wus * IMPROVEMENT) {
    printf("%-15s %-4s %-17s %-36s %9.1f us -> %-36s %9.1f us  %.3fx\n", fam, dt, shape,
           k->winner, wus, bname, bus, wus / bus);
    snprintf(k->winner, sizeof k->winner, "%s", bname);
    k->us = bus;
    k->improved = 1;
  } else {
    printf("%-15s %-4s %-17s %-36s %9.1f us stays (%d candidates)\n", fam, dt, shape, k->winner,
           wus, nc);
  }
  return 0;
}

/* Add a row measured now, replacing the time of the same key and variant:
** a key's candidates are compared within one session, and an older, luckier
** time of the winner must not hide a neighbour measured faster now. */
static int put_row(kp_tune_table *t, const kp_tune_row *row) {
  for (size_t i = 0; i < t->n; i++) {
    kp_tune_row *o = &t->rows[i];
    if (!strcmp(o->family, row->family) && o->dtype == row->dtype &&
        !memcmp(o->dim, row->dim, sizeof o->dim) && o->align == row->align && o->form == row->form &&
        !strcmp(o->variant, row->variant)) {
      o->us = row->us;
      return 0;
    }
  }
  return kp_tune_add(t, row);
}

/* Time every active key on the round's pack; rows go into r->t. */
static int time_round(regen *r, int round, kp_device_info *info) {
  kp_options opt;
  kp_options_init(&opt);
  opt.device = r->o.device;
  opt.pack_path = r->cur;
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(&opt, &ctx);
  if (s != KP_OK) {
    fprintf(stderr, "kp regen: %s: %s\n", kp_status_name(s), kp_ctx_errmsg(ctx));
    kp_ctx_destroy(ctx);
    return -1;
  }
  if (ctx->tune) { /* references come from the ranking's picks */
    kp_tune_free(ctx->tune);
    free(ctx->tune);
    ctx->tune = NULL;
  }
  ctx->autotune = 0; /* ($KP_AUTOTUNE) the reference run must not time variants itself */
  *info = ctx->info;
  kp_tune_table rt;
  memset(&rt, 0, sizeof rt);
  kp_bench *b = kp_bench_open(ctx);
  int rc = b ? 0 : -1, n = 0, done = 0, rejected = 0;
  for (int k = 0; k < r->n_keys; k++) n += r->keys[k].active;
  char title[48];
  snprintf(title, sizeof title, "kp regen: round %d: timing", round);
  kp_progress prog;
  kp_progress_init(&prog, stderr, title, n, r->o.quiet);
  for (int k = 0; k < r->n_keys && !rc; k++) {
    rkey *key = &r->keys[k];
    if (!key->active) continue;
    if (kp_now_s() - r->t0 > r->o.budget_s) {
      kp_progress_break(&prog);
      fprintf(stderr, "kp regen: time budget of %.0f s reached after %d of %d keys\n",
              r->o.budget_s, done, n);
      break;
    }
    char label[48], shape[96];
    const char *c[256];
    int nc = candidates(r, key, &ctx->pack, c, 256);
    kp_shape sh = key_shape(key->fam, key->dim, key->form);
    kp_progress_show(&prog, done, "%s %s %s on %s, %d candidates",
                     kp_fam_label(key->fam, key->form, label, sizeof label), kp_dtype_name(key->dt),
                     kp_shape_text(&sh, shape, sizeof shape), r->target, nc);
    done++;
    if (nc < 2) continue; /* no neighbour made it into the pack */
    if (time_key(r, ctx, b, key, &rt, &rejected)) {
      kp_progress_break(&prog);
      fprintf(stderr, "kp regen: device error; keeping what was measured\n");
      rc = -1;
    }
  }
  if (!rc && done == n) kp_progress_show(&prog, done, "done");
  kp_progress_break(&prog);
  if (rejected)
    fprintf(stderr, "kp regen: round %d: %d candidates rejected (output differs)\n", round,
            rejected);
  for (size_t i = 0; i < rt.n; i++)
    if (put_row(&r->t, &rt.rows[i])) rc = -1;
  kp_tune_free(&rt);
  kp_bench_close(b);
  kp_ctx_destroy(ctx);
  return rc;
}

/* ---- the command ------------------------------------------------------------- */

static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  char tmp[PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", to, (long)getpid());
  FILE *out = in ? fopen(tmp, "wb") : NULL;
  char buf[1 << 16];
  size_t n;
  int ok = in && out;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
  ok = ok && !ferror(in);
  if (in) fclose(in);
  if (out) ok = (fclose(out) == 0) && ok;
  if (!ok || rename(tmp, to)) {
    remove(tmp);
    return fail("%s: cannot write: %s", to, strerror(errno));
  }
  return 0;
}

/* The default table: <target>.<device>.tune beside NEWPACK, the name the
** runtime looks for beside the pack it uses. */
static void table_path(const regen *r, const kp_device_info *info, char *out, size_t n) {
  if (r->o.table_out) {
    snprintf(out, n, "%s", r->o.table_out);
    return;
  }
  char name[200];
  kp_tune_default_name(info->target[0] ? info->target : r->target, info->name, name, sizeof name);
  const char *slash = strrchr(r->o.out, '/');
  if (slash) snprintf(out, n, "%.*s/%s", (int)(slash - r->o.out), r->o.out, name);
  else snprintf(out, n, "%s", name);
}

/* A GPU must be there before the minutes of compiling: open one and check
** the table was measured on its kind. */
static int probe_device(regen *r) {
  kp_options opt;
  kp_options_init(&opt);
  opt.device = r->o.device;
  opt.pack_path = r->o.pack;
  kp_ctx *ctx = NULL;
  kp_status s = kp_ctx_create(&opt, &ctx);
  int rc = 0;
  char why[900];
  if (s != KP_OK) {
    fprintf(stderr, "kp regen: no usable GPU/driver (device %d): %s: %s\n"
            "kp regen: timing needs one; --dry-run generates, compiles and packs without it\n",
            r->o.device, kp_status_name(s), kp_ctx_errmsg(ctx));
    rc = -1;
  } else if (!kp_tune_matches(&r->t, &ctx->info, why, sizeof why)) {
    fprintf(stderr, "kp regen: %s\n", why);
    rc = -1;
  }
  kp_ctx_destroy(ctx);
  return rc;
}

/* work/src, work/obj, and the directory NEWPACK goes to. */
static int mkdirs(const char *work, const char *out) {
  char p[PATH_MAX + 8];
  const char *sub[] = {"src", "obj"};
  for (int i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/%s", work, sub[i]);
    if (kp_mkdirs(p)) return fail("%s: cannot create: %s", p, strerror(errno));
  }
  const char *slash = strrchr(out, '/');
  snprintf(p, sizeof p, "%.*s", slash ? (int)(slash - out) : 0, out);
  if (p[0] && kp_mkdirs(p)) return fail("%s: cannot create: %s", p, strerror(errno));
  return 0;
}

static void print_plan(const regen *r) {
  kpk_pack pk;
  char err[800];
  if (kpk_open(&pk, r->cur, err, sizeof err) != KP_OK) {
    fprintf(stderr, "kp regen: %s\n", err);
    kpk_close(&pk);
    return;
  }
  for (int k = 0; k < r->n_keys; k++) {
    const rkey *key = &r->keys[k];
    const char *c[256];
    char label[48], shape[96];
    kp_shape sh = key_shape(key->fam, key->dim, key->form);
    printf("%-15s %-4s %-17s %-36s %3d candidates\n",
           kp_fam_label(key->fam, key->form, label, sizeof label), kp_dtype_name(key->dt),
           kp_shape_text(&sh, shape, sizeof shape), key->winner, candidates(r, key, &pk, c, 256));
  }
  kpk_close(&pk);
  fflush(stdout);
}

/* The rounds: generate, compile, pack, time; 0 or -1.  info: the device
** (its name stays empty until a round was timed). */
static int rounds(regen *r, kp_device_info *info, int *improved) {
  for (int round = 1; round <= r->o.rounds; round++) {
    if (kp_now_s() - r->t0 > r->o.budget_s) {
      fprintf(stderr, "kp regen: time budget of %.0f s reached before round %d\n", r->o.budget_s,
              round);
      break;
    }
    if (ask_generator(r, round) || compile_fresh(r, round) || extend(r, round)) return -1;
    if (r->o.dry_run) {
      print_plan(r);
      break;
    }
    if (time_round(r, round, info)) return -1;
    int more = 0;
    for (int k = 0; k < r->n_keys; k++) {
      rkey *key = &r->keys[k];
      key->active = key->improved;
      *improved += key->improved;
      more += key->improved;
      key->improved = 0;
    }
    fprintf(stderr, "kp regen: round %d: %d keys improved by more than 1%%\n", round, more);
    if (!more) break;
  }
  return 0;
}

int kp_cmd_regen(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return fputs(usage_regen, stdout), 0;
  static regen r; /* big: paths */
  memset(&r, 0, sizeof r);
  if (parse(argc, argv, &r.o)) return 2;
  r.t0 = kp_now_s();
  int rc = validate(&r);
  if (!rc && !r.o.dry_run) rc = probe_device(&r);
  if (!rc) {
    if (r.o.workdir) snprintf(r.work, sizeof r.work, "%s", r.o.workdir);
    else snprintf(r.work, sizeof r.work, "%s.d", r.o.out);
    snprintf(r.cur, sizeof r.cur, "%s", r.o.pack);
    rc = mkdirs(r.work, r.o.out);
  }
  kp_device_info info;
  memset(&info, 0, sizeof info);
  int improved = 0, started = !rc;
  if (started) {
    fprintf(stderr, "kp regen: %s: %d keys, pack %s (%s)%s -> %s\n", r.o.table, r.n_keys, r.o.pack,
            r.target, r.o.dry_run ? ", dry run" : "", r.o.out);
    rc = rounds(&r, &info, &improved);
  }
  /* what was measured is kept even when a later step failed: the table and
  ** the pack holding its variants */
  if (started && (!rc || info.name[0])) {
    char tout[PATH_MAX + 200], err[800];
    if (info.name[0]) {
      kpk_pack pk;
      table_path(&r, &info, tout, sizeof tout);
      if (kpk_open(&pk, r.cur, err, sizeof err) == KP_OK) kp_tune_set_meta(&r.t, &info, &pk);
      kpk_close(&pk);
      if (kp_tune_save(&r.t, tout, err, sizeof err) != KP_OK) rc = fail("%s", err);
      else fprintf(stderr, "kp regen: %d keys improved; table %s\n", improved, tout);
    }
    if (copy_file(r.cur, r.o.out)) rc = -1;
    else fprintf(stderr, "kp regen: wrote %s (%.0f s)\n", r.o.out, kp_now_s() - r.t0);
  }
  for (int i = 0; i < r.n_wins; i++) free_names(r.wins[i].nb, r.wins[i].n_nb);
  free(r.wins);
  free(r.keys);
  free_names(r.fresh, r.n_fresh);
  kp_tune_free(&r.t);
  return rc ? 1 : 0;
}
