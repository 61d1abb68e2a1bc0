/* sweep_workers.c: a sweep's worker processes: what a worker does (simulate
 * its point, send the results through its pipe), how it dies with its sweep
 * (PR_SET_PDEATHSIG), and the sweep's handlers that pass SIGTERM, SIGINT and
 * SIGHUP on to its running workers (docs/robustness.md, "Signals"). */
#define _GNU_SOURCE

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "results/safety.h"
#include "study/study_internal.h"
#include "study/sweep_internal.h"

/* Writes all of buf to fd; 0 or -errno. */
static int ns__write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return -errno;
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

/* The running workers' pids (0: a free slot), for the signal handler. */
static pid_t *volatile ns__wpids;
static volatile size_t ns__nwpids;
static const int ns__sigs[] = {SIGTERM, SIGINT, SIGHUP};

/* SIGTERM, SIGINT or SIGHUP to the sweep: passed on to every worker, the
 * temporary files removed, then the sweep dies of it as it would have. */
static void ns__on_signal(int sig) {
  size_t k;
  for (k = 0; ns__wpids != NULL && k < ns__nwpids; k++)
    if (ns__wpids[k] > 0)
      kill(ns__wpids[k], sig);
  nicsim_tmp_remove_all();
  signal(sig, SIG_DFL);
  raise(sig);
}

void ns_sweep_worker_add(pid_t pid) {
  size_t k;
  for (k = 0; ns__wpids != NULL && k < ns__nwpids; k++)
    if (ns__wpids[k] == 0) {
      ns__wpids[k] = pid;
      return;
    }
}

void ns_sweep_worker_del(pid_t pid) {
  size_t k;
  for (k = 0; ns__wpids != NULL && k < ns__nwpids; k++)
    if (ns__wpids[k] == pid)
      ns__wpids[k] = 0;
}

/* In a freshly forked worker: it dies with its parent (also of SIGKILL,
 * PR_SET_PDEATHSIG), a parent that died before the prctl included. */
void ns_worker_tie_to_parent(pid_t parent, int sig) {
  size_t k;
  for (k = 0; k < sizeof(ns__sigs) / sizeof(*ns__sigs); k++)
    signal(ns__sigs[k], SIG_DFL);
  nicsim_tmp_forget_all();
  if (prctl(PR_SET_PDEATHSIG, sig) != 0 || getppid() != parent)
    _exit(5);
}

/* The child: simulate one point, send the message, exit without running
 * the parent's atexit handlers or flushing its stdio buffers. */
void ns_sweep_child(int wfd, const struct nicsim_config *cfg) {
  struct ns_sweep_msg *m = calloc(1, sizeof(*m));

  /* stdout belongs to the parent's table: anything the model prints goes
   * to stderr instead. */
  dup2(STDERR_FILENO, STDOUT_FILENO);
  signal(SIGPIPE, SIG_DFL);
  if (m == NULL)
    _exit(3);
  m->magic = NS_SWEEP_MSG_MAGIC;
  nicsim_results_init(&m->res);
  m->rc = nicsim_simulate(cfg, &m->res, &m->err, 0);
  fflush(stdout);
  fflush(stderr);
  _exit(ns__write_all(wfd, m, sizeof(*m)) == 0 ? 0 : 4);
}

/* Starts the table of jobs workers and the handlers that pass signals on. */
static struct sigaction ns__old[sizeof(ns__sigs) / sizeof(*ns__sigs)];
void ns_sweep_workers_begin(size_t jobs) {
  struct sigaction sa;
  size_t k;
  ns__wpids = calloc(jobs ? jobs : 1, sizeof(pid_t));
  ns__nwpids = ns__wpids ? jobs : 0;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = ns__on_signal;
  sigemptyset(&sa.sa_mask);
  for (k = 0; k < sizeof(ns__sigs) / sizeof(*ns__sigs); k++)
    sigaction(ns__sigs[k], &sa, &ns__old[k]);
}

/* Restores the handlers and frees the table. */
void ns_sweep_workers_end(void) {
  pid_t *p = ns__wpids;
  size_t k;
  for (k = 0; k < sizeof(ns__sigs) / sizeof(*ns__sigs); k++)
    sigaction(ns__sigs[k], &ns__old[k], NULL);
  ns__wpids = NULL;
  ns__nwpids = 0;
  free(p);
}
