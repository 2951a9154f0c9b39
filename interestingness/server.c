/* Client side of the persistent oracle protocol: see server.h and PROTOCOL.md. */
#define _XOPEN_SOURCE 700
#include "../support/clock.h"
#include "server.h"
#include "strays.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../support/xalloc.h"

enum { LINE_MAX_BYTES = 64 * 1024 };

typedef struct Server {
  pid_t pid;          /* 0: not running */
  int in, out;        /* its stdin (we write), its stdout (we read, non-blocking) */
  char *line;         /* the answer so far */
  size_t used;
  ServerJob *job;     /* the query it is answering, or NULL */
  bool draining;      /* answering a cancelled query: read the line, drop it */
  char drain_dir[PATH_MAX]; /* that query's directory, removed once it is answered ("" if none) */
  char asked[2 * PATH_MAX]; /* the path of the query outstanding (answered or drained next) */
  bool echoes;        /* it has prefixed an answer with its query's path (PROTOCOL.md, echo) */
  double sent_at;
} Server;

struct ServerPool {
  char *cmd;
  RunOptions o;
  Server *servers;
  unsigned slots;
  unsigned long garbage, starts;
};

struct ServerJob {
  Server *server;
  char dir[PATH_MAX];
  char file[2 * PATH_MAX];
  bool done, cancelled, timed_out, retried;
  bool dir_handed_over; /* cancelled while the server reads it: the server removes the directory */
  int status;
  char *answer;       /* the signature */
};

static void drop_drained(Server *s) {
  if (s->drain_dir[0]) run_remove_tree(s->drain_dir);
  s->drain_dir[0] = '\0';
  s->draining = false;
}

static void server_kill(Server *s) {
  drop_drained(s);
  if (!s->pid) return;
  close(s->in);
  close(s->out);
  kill(-s->pid, SIGTERM);
  /* a short grace period, then nothing of its group survives */
  for (int i = 0; i < 50 && waitpid(s->pid, NULL, WNOHANG) == 0; i++) nanosleep(&(struct timespec){0, 10000000}, NULL);
  kill(-s->pid, SIGKILL);
  waitpid(s->pid, NULL, 0);
  strays_untrack(s->pid);
  strays_reap();
  s->pid = 0;
  s->used = 0;
  s->draining = false;
  s->echoes = false;
}

static bool server_launch(ServerPool *p, Server *s, char *err, size_t errlen) {
  int to[2], from[2];
  if (pipe(to) != 0) return snprintf(err, errlen, "pipe: %s", strerror(errno)), false;
  if (pipe(from) != 0) {
    close(to[0]);
    close(to[1]);
    return snprintf(err, errlen, "pipe: %s", strerror(errno)), false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(to[0]), close(to[1]), close(from[0]), close(from[1]);
    return snprintf(err, errlen, "fork: %s", strerror(errno)), false;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(to[0], STDIN_FILENO);
    dup2(from[1], STDOUT_FILENO);
    close(to[0]), close(to[1]), close(from[0]), close(from[1]);
    signal(SIGPIPE, SIG_DFL);
    if (p->o.nice) setpriority(PRIO_PROCESS, 0, getpriority(PRIO_PROCESS, 0) + p->o.nice);
    setenv("RELAYKIT_ORACLE_ECHO", "1", 1); /* ask for the echo extension (PROTOCOL.md) */
    setenv(RUN_OUTCOME_ENV, "1", 1);        /* and for the outcome beside each candidate */
    execl("/bin/sh", "sh", "-c", p->cmd, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  strays_track(pid);
  close(to[0]);
  close(from[1]);
  fcntl(to[1], F_SETFD, FD_CLOEXEC);
  fcntl(from[0], F_SETFD, FD_CLOEXEC);
  fcntl(from[0], F_SETFL, O_NONBLOCK);
  s->pid = pid;
  s->in = to[1];
  s->out = from[0];
  s->used = 0;
  s->echoes = false;
  p->starts++;
  return true;
}

ServerPool *server_pool_new(const char *cmd, unsigned slots, const RunOptions *o) {
  signal(SIGPIPE, SIG_IGN); /* a dead server is noticed by EPIPE, not by dying with it */
  ServerPool *p = xcalloc(1, sizeof *p);
  p->cmd = xstrdup(cmd);
  p->o = *o;
  p->slots = slots ? slots : 1;
  p->servers = xcalloc(p->slots, sizeof *p->servers);
  for (unsigned i = 0; i < p->slots; i++) p->servers[i].line = xmalloc(LINE_MAX_BYTES + 1);
  /* All start now, together: their start-up (TVM's import) overlaps instead of adding up.  One
     that cannot start is retried, with a message, at its first query. */
  char err[256];
  for (unsigned i = 0; i < p->slots; i++) server_launch(p, &p->servers[i], err, sizeof err);
  return p;
}

void server_pool_free(ServerPool *p) {
  if (!p) return;
  for (unsigned i = 0; i < p->slots; i++) {
    server_kill(&p->servers[i]);
    free(p->servers[i].line);
  }
  free(p->servers);
  free(p->cmd);
  free(p);
}

unsigned long server_pool_garbage(const ServerPool *p) { return p->garbage; }
unsigned long server_pool_starts(const ServerPool *p) { return p->starts; }

/* Sends the job's path to a server; false when the server is gone (the caller restarts it). */
static bool send_query(Server *s, ServerJob *j) {
  char line[2 * PATH_MAX + 2];
  int n = snprintf(line, sizeof line, "%s\n", j->file);
  if (!fd_write_all(s->in, line, (size_t)n)) return false;
  snprintf(s->asked, sizeof s->asked, "%s", j->file);
  s->job = j;
  j->server = s;
  s->sent_at = clock_seconds();
  s->used = 0;
  return true;
}

static void finish_job(ServerJob *j, int status, const char *answer, bool timed_out) {
  j->done = true;
  j->status = status;
  j->timed_out = timed_out;
  j->answer = xstrdup(answer);
}

/* The server failed the job (died, or garbage): restart it and retry once, else an error. */
static void server_failed(ServerPool *p, Server *s, const char *why) {
  ServerJob *j = s->job;
  s->job = NULL;
  server_kill(s);
  if (!j || j->cancelled) return;
  char err[256];
  if (!j->retried && server_launch(p, s, err, sizeof err) && send_query(s, j)) {
    j->retried = true;
    return;
  }
  finish_job(j, -1, why, false);
}

/* Parses `STATUS [SIGNATURE]`. */
static bool parse_answer(const char *line, int *status, const char **sig) {
  char *end;
  errno = 0;
  long v = strtol(line, &end, 10);
  if (end == line || errno || v < -1 || v > 255 || (*end && *end != ' ')) return false;
  *status = (int)v;
  *sig = *end ? end + 1 : "";
  return true;
}

/* Takes the echo of the outstanding query's path off an answer (`PATH<TAB>STATUS ...`).  A server
   that has echoed once must echo every answer with the right path: a stale or surplus line then
   shows itself whenever it arrives, where without the echo one arriving after the next query was
   sent would be taken as that query's answer.  False: the line is not this query's answer. */
static bool strip_echo(Server *s, const char **answer) {
  size_t n = strlen(s->asked);
  if (strncmp(*answer, s->asked, n) == 0 && (*answer)[n] == '\t') {
    *answer += n + 1;
    s->echoes = true;
    return true;
  }
  return !s->echoes;
}

/* Whether more has come after an answer line already: a line written with the answer (a plain
   server answering `0\n0\n`).  Taking the answer and catching the surplus before the next query
   (unsolicited) is not enough: the answer itself came from a server that lies, and a fresh server
   answering so every first query would get a verdict of its choosing on each.  Such an answer is
   garbage, and the query goes to a fresh server once more.  EOF is no surplus: a server may exit
   after its answer (send_query finds out). */
static bool surplus(Server *s) {
  char c;
  return read(s->out, &c, 1) == 1;
}

/* Reads what a server has written; handles a complete line, EOF and timeouts. */
static void pump(ServerPool *p, Server *s) {
  if (!s->pid || (!s->job && !s->draining)) return;
  for (;;) {
    char c;
    ssize_t n = read(s->out, &c, 1);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
      server_failed(p, s, "the oracle server exited without answering");
      return;
    }
    if (n < 0) break;
    if (c != '\n') {
      if (s->used < LINE_MAX_BYTES) s->line[s->used++] = c;
      continue;
    }
    s->line[s->used] = '\0';
    s->used = 0;
    const char *answer = s->line;
    if (surplus(s)) { /* two lines for one query: which one answers it is anyone's guess */
      p->garbage++;
      if (s->draining) server_kill(s);
      else server_failed(p, s, "the oracle server wrote more than one line for one query");
      return;
    }
    if (!strip_echo(s, &answer)) { /* a line meant for an earlier query, or none */
      p->garbage++;
      if (s->draining) server_kill(s);
      else server_failed(p, s, "the oracle server answered a query it was not asked");
      return;
    }
    if (s->draining) { /* the answer to a cancelled query */
      drop_drained(s);
      return;
    }
    int status;
    const char *sig;
    ServerJob *j = s->job;
    if (!parse_answer(answer, &status, &sig)) {
      p->garbage++;
      char why[512];
      snprintf(why, sizeof why, "the oracle server answered garbage (want 'STATUS [SIGNATURE]'): '%.200s'", s->line);
      s->job = NULL;
      server_kill(s);
      finish_job(j, -1, why, false);
      return;
    }
    s->job = NULL;
    finish_job(j, status, sig, false);
    return;
  }
  bool stop = p->o.stop && *p->o.stop;
  if (stop || (p->o.timeout > 0 && clock_seconds() - s->sent_at > p->o.timeout)) {
    ServerJob *j = s->job;
    s->job = NULL;
    server_kill(s); /* a hung server: its group goes, a new one starts with the next query */
    if (j) finish_job(j, -1, stop ? "interrupted" : "timeout", !stop);
  }
}

/* Whether an idle server has written something nobody asked for: a second line after an answer
   would be read as the answer to the next query and shift every later one.  Such a server is
   garbage (PROTOCOL.md): it is counted, killed, and a fresh one takes the next query. */
static bool unsolicited(ServerPool *p, Server *s) {
  struct pollfd pfd = {s->out, POLLIN, 0};
  if (!s->pid || poll(&pfd, 1, 0) <= 0) return false;
  char c;
  if (read(s->out, &c, 1) != 1) return false; /* EOF: it died idle; send_query finds out */
  p->garbage++;
  server_kill(s);
  return true;
}

static Server *free_server(ServerPool *p) {
  for (unsigned i = 0; i < p->slots; i++)
    if (!p->servers[i].job && !p->servers[i].draining) return &p->servers[i];
  return NULL;
}

ServerJob *server_start(ServerPool *p, const char *basename, const char *text, size_t len, const RunSide *side,
                        char *err, size_t errlen) {
  Server *s;
  while (!(s = free_server(p))) server_wait(p, NULL, 0, 20);
  ServerJob *j = xcalloc(1, sizeof *j);
  if (!run_prepare_dir(basename, text, len, side, j->dir, j->file, sizeof j->file, err, errlen)) {
    free(j);
    return NULL;
  }
  unsolicited(p, s);
  if (!s->pid && !server_launch(p, s, err, errlen)) {
    run_remove_tree(j->dir);
    free(j);
    return NULL;
  }
  if (!send_query(s, j)) { /* it died while idle: once more with a new one */
    server_kill(s);
    if (!server_launch(p, s, err, errlen) || !send_query(s, j)) {
      if (!*err) snprintf(err, errlen, "cannot send a query to the oracle server '%s'", p->cmd);
      run_remove_tree(j->dir);
      free(j);
      return NULL;
    }
  }
  return j;
}

void server_wait(ServerPool *p, ServerJob *const *jobs, size_t n, int ms) {
  (void)jobs;
  (void)n;
  struct pollfd pfd[64];
  unsigned np = 0;
  for (unsigned i = 0; i < p->slots && np < 64; i++)
    if (p->servers[i].pid && (p->servers[i].job || p->servers[i].draining))
      pfd[np++] = (struct pollfd){p->servers[i].out, POLLIN, 0};
  if (np) poll(pfd, np, ms < 20 ? ms : 20);
  for (unsigned i = 0; i < p->slots; i++) pump(p, &p->servers[i]);
}

bool server_done(const ServerJob *j) { return j->done; }

void server_cancel(ServerJob *j) {
  j->cancelled = true;
  if (!j->done && j->server && j->server->job == j) {
    j->server->job = NULL;
    j->server->draining = true; /* keep the server (its start-up is the expensive part) */
    j->server->sent_at = clock_seconds();
    snprintf(j->server->drain_dir, sizeof j->server->drain_dir, "%s", j->dir);
    j->dir_handed_over = true;
  }
}

void server_finish(ServerPool *p, ServerJob *j, RunResult *r) {
  while (!j->done && !j->cancelled) server_wait(p, &j, 1, 20);
  memset(r, 0, sizeof *r);
  r->status = j->done ? j->status : -1;
  r->timed_out = j->timed_out;
  r->output = j->answer ? j->answer : xstrdup("");
  r->output_len = strlen(r->output);
  if (j->done && !j->dir_handed_over) r->outcome = run_read_outcome(j->file);
  if (p->o.keep_temps) r->dir = xstrdup(j->dir);
  else if (!j->dir_handed_over) run_remove_tree(j->dir);
  free(j);
}
