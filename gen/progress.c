/*
** progress.c -- the progress line of a long job (see progress.h).
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

double kp_progress_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void kp_progress_fmt(double s, char *out, size_t n) {
  if (s < 0 || !isfinite(s)) snprintf(out, n, "--");
  else if (s < 60) snprintf(out, n, "%.0fs", s);
  else if (s < 3600) snprintf(out, n, "%dm%02ds", (int)s / 60, (int)s % 60);
  else snprintf(out, n, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

void kp_progress_init(kp_progress *p, FILE *out, const char *what, int total, int quiet) {
  memset(p, 0, sizeof *p);
  p->out = out;
  p->what = what;
  p->total = total;
  p->t0 = kp_progress_now();
  const char *plain = getenv("KP_PROGRESS_PLAIN"); /* e.g. shards sharing a terminal */
  p->tty = isatty(fileno(out)) && !(plain && *plain && strcmp(plain, "0"));
  p->quiet = quiet;
  p->last = -1e30;
}

void kp_progress_show(kp_progress *p, int done, const char *now, ...) {
  if (p->quiet) return;
  if (done > p->total) p->total = done;
  double t = kp_progress_now(), el = t - p->t0;
  int last = done >= p->total;
  if (!p->tty && !last && t - p->last < p->log_every_s) return;
  p->last = t;
  char cur[160] = "", els[16], eta[16];
  if (now) {
    va_list ap;
    va_start(ap, now);
    vsnprintf(cur, sizeof cur, now, ap);
    va_end(ap);
  }
  kp_progress_fmt(el, els, sizeof els);
  kp_progress_fmt(done > 0 ? el / done * (p->total - done) : -1, eta, sizeof eta);
  int w = p->total >= 1000 ? 4 : p->total >= 100 ? 3 : 2;
  fprintf(p->out, "%s%s [%*d/%d] %3.0f%%  %s elapsed  ETA %-6s %s%s", p->tty ? "\r\033[K" : "",
          p->what, w, done, p->total, p->total ? 100.0 * done / p->total : 100.0, els, eta, cur,
          p->tty ? "" : "\n");
  p->open = p->tty;
  fflush(p->out);
}

void kp_progress_break(kp_progress *p) {
  if (p->open) {
    fputc('\n', p->out);
    fflush(p->out);
  }
  p->open = 0;
}
