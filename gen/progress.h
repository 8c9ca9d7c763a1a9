/*
** progress.h -- the progress line of a long job (the pack build, kp tune,
** kp regen, kp warmup): done / total, elapsed, ETA and what runs now.
**
** On a terminal it is one line rewritten in place ("\r" + erase); otherwise
** (a log, a pipe) plain lines without escape codes, at most one every
** log_every_s seconds (0: every step).  quiet: nothing at all.  Other
** output while a terminal line is open goes after kp_progress_break().
** KP_PROGRESS_PLAIN=1 asks for plain lines on a terminal too (processes
** that share one, as kp tune --devices' shards do).
*/
#ifndef KP_PROGRESS_H
#define KP_PROGRESS_H

#include <stdio.h>

typedef struct kp_progress {
  FILE *out;
  const char *what;   /* the job: "kp tune", "NVRTC" */
  int total;
  double t0;          /* start, seconds since the epoch */
  double log_every_s; /* plain lines: at most one this often (the last always) */
  double last;        /* when the last plain line went out */
  int tty, quiet;
  int open;           /* a terminal line without its newline */
} kp_progress;

/* Seconds since the epoch (a clock several processes share: make's jobs). */
double kp_progress_now(void);

/* Start a job of total steps on out (a terminal or not: isatty). */
void kp_progress_init(kp_progress *p, FILE *out, const char *what, int total, int quiet);

/* done steps are finished; now is what runs next (printf format), NULL for
** nothing.  A done past total raises total (a count that was an estimate). */
void kp_progress_show(kp_progress *p, int done, const char *now, ...)
    __attribute__((format(printf, 3, 4)));

/* End an open terminal line, so that other output starts on its own line. */
void kp_progress_break(kp_progress *p);

/* "42s", "3m07s", "1h02m"; "--" for an unknown (negative) time. */
void kp_progress_fmt(double s, char *out, size_t n);

#endif
