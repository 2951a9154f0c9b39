/*
 * The TVM releases the registry describes, and the one this process checks against.
 *
 * Relay left TVM in February 2025: v0.19.0 is the last release with it.  relaykit knows two:
 * v0.13.0 and v0.19.0.  What differs between them in the Relay registry (src/relay/op,
 * src/relay/qnn, include/tvm/relay/attrs, measured on both builds by tests/tvm/) is held by the
 * registry's rows, each saying which releases it holds for (OpDef.tvm):
 *
 *   contrib.ethosu.* (six ops)                  v0.13.0 only (ethosu.c)
 *   vision.regular_non_max_suppression          v0.19.0 only (vision.c)
 *   nn.contrib_conv2d_gemm_weight_transform     tile_rows/tile_cols became tile_N/tile_K, and the
 *                                               result pads K to four tiles, (.., .., k, n) for
 *                                               non-8-bit weights (nn_conv.c)
 *   nn.conv3d                                   a depthwise weight is (C, channels / C, k...) in
 *                                               v0.19.0, as conv2d's already was (nn_conv.c)
 *   qnn.conv2d                                  grouped, not depthwise: the weight scale has
 *                                               `channels` elements in v0.19.0 (nn_conv.c)
 *   qnn.dequantize                              out_dtype (float32 or float16), required (nn.c)
 *   qnn.quantize, qnn.dequantize                uint16 data in v0.19.0 (nn.c)
 *   vision.multibox_transform_loc               keep_background (vision.c)
 *   memory.alloc_storage                        a shape argument: (size, shape, alignment) (misc.c)
 *   split                                       v0.19.0 prints indices_or_sections as
 *                                               meta[runtime.BoxInt][i] (infer/meta_attrs.c reads
 *                                               it for both)
 *
 * The choice is made once per process: --tvm-version (op_tvm_choose), else RELAYKIT_TVM_VERSION
 * (which the choice is exported as, so that the tools one runs, rfuzz's rreduce, agree without
 * asking again), else the TVM the TVM scripts would import (interestingness/README.md: the Python
 * of RELAYKIT_PYTHON, else python3, with $TVM_HOME/python first on its path), else the newest.
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/cli.h"
#include "ops.h"

typedef struct Release {
  const char *name; /* as --tvm-version takes it */
  const char *full; /* as tvm.__version__ says it */
  int minor;        /* 0.MINOR */
} Release;

static const Release releases[TVM_RELEASES] = {
    [TVM_0_13] = {"0.13", "0.13.0", 13},
    [TVM_0_19] = {"0.19", "0.19.0", 19},
};

/* Relay's releases: 0.6 brought the text format relaykit reads; 0.20 removed Relay. */
enum { RELAY_FIRST_MINOR = 6, RELAY_GONE_MINOR = 20 };

/* Seconds the detection may take: finding the package and reading its version costs a Python
   start (tens of ms); only a package without tvm/_ffi/libinfo.py is imported (seconds). */
enum { DETECT_TIMEOUT_S = 10 };

static struct {
  bool chosen;
  TvmRelease release;
  char how[1024]; /* how it was chosen, for --version and the reports */
  bool open;      /* the newest by default (nothing says the release): the first program checked
                     may still settle on an older one (op_tvm_first_check) */
  bool checked;   /* a program was checked: the release is settled */
} tvm;

const char *op_tvm_release_name(TvmRelease r) { return releases[r].full; }

const char *op_tvm_release_short(TvmRelease r) { return releases[r].name; }

const char *op_tvm_known(void) { return "0.13 (v0.13.0) and 0.19 (v0.19.0)"; }

/* "0.19.0" -> 0, 19 and the rest after the release number ("" here; ".dev0", "+vendor", "rc1"
   for a fork's or a pre-release's string).  False when it does not start as a version does. */
static bool split_version(const char *text, int *major, int *minor, const char **rest, bool *patch) {
  const char *p = text;
  if (*p == 'v' || *p == 'V') p++;
  char *end;
  if (!isdigit((unsigned char)*p)) return false;
  long a = strtol(p, &end, 10);
  if (*end != '.' || !isdigit((unsigned char)end[1])) return false;
  long b = strtol(end + 1, &end, 10);
  *patch = false;
  if (*end == '.' && isdigit((unsigned char)end[1])) {
    *patch = strtol(end + 1, &end, 10) != 0;
  }
  if (a > 1000 || b > 1000) return false;
  *major = (int)a;
  *minor = (int)b;
  *rest = end;
  return true;
}

/* The known release nearest to 0.MINOR (a tie goes to the newer). */
static TvmRelease nearest(int minor) {
  TvmRelease best = TVM_0_13;
  for (int r = 0; r < TVM_RELEASES; r++)
    if (abs(releases[r].minor - minor) <= abs(releases[best].minor - minor)) best = (TvmRelease)r;
  return best;
}

/* Reads a version string.  `fork_ok`: a release relaykit does not know maps to the nearest known
   one (a detected TVM, or a fork's string with a suffix); otherwise it is an error.  Returns 0
   (taken as is), 1 (mapped: `note` says so) or -1 (error in `err`). */
static int read_version(const char *text, bool fork_ok, TvmRelease *out, char *note, size_t notelen, char *err,
                        size_t errlen) {
  int major, minor;
  const char *rest;
  bool patch;
  if (!split_version(text, &major, &minor, &rest, &patch)) {
    snprintf(err, errlen, "'%s' is not a TVM version; relaykit knows %s", text, op_tvm_known());
    return -1;
  }
  bool fork = *rest != '\0';
  if (major != 0 || minor >= RELAY_GONE_MINOR) {
    snprintf(err, errlen, "TVM %s has no Relay (it left TVM in v0.20.0); relaykit knows %s", text, op_tvm_known());
    return -1;
  }
  for (int r = 0; r < TVM_RELEASES; r++)
    if (releases[r].minor == minor) {
      *out = (TvmRelease)r;
      if (!fork && !patch) return 0;
      snprintf(note, notelen, "TVM %s is taken as v%s", text, releases[r].full);
      return 1;
    }
  if (!(fork_ok || fork) || minor < RELAY_FIRST_MINOR) {
    snprintf(err, errlen, "relaykit knows TVM %s, not %s (for a TVM between them, give the nearest: --tvm-version %s)",
             op_tvm_known(), text, releases[nearest(minor)].name);
    return -1;
  }
  *out = nearest(minor);
  snprintf(note, notelen, "TVM %s is not a release relaykit knows; it checks against the nearest, v%s", text,
           releases[*out].full);
  return 1;
}

/* Exported so that the relaykit tools this process runs make the same choice without asking. */
static void export_choice(void) { setenv("RELAYKIT_TVM_VERSION", releases[tvm.release].name, 1); }

bool op_tvm_choose(const char *text, char *err, size_t errlen) {
  char note[256] = "";
  TvmRelease r;
  int k = read_version(text, false, &r, note, sizeof note, err, errlen);
  if (k < 0) return false;
  tvm.chosen = true;
  tvm.release = r;
  snprintf(tvm.how, sizeof tvm.how, "--tvm-version %s", text);
  if (k == 1) fprintf(stderr, "%s: note: %s\n", program_invocation_short_name, note);
  export_choice();
  return true;
}

/* Runs `argv` with stdout into `out` (at most outlen - 1 bytes), killed after `timeout` seconds;
   its exit status, or -1 (could not run, killed, timed out). */
static int capture(char *const argv[], char *out, size_t outlen, int timeout) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    dup2(fds[1], 1);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2); /* Python's own complaints are not the tool's output */
    close(fds[0]);
    close(fds[1]);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(fds[1]);
  size_t len = 0;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  bool timed_out = false;
  for (;;) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long left = timeout * 1000L - ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L);
    if (left <= 0) {
      timed_out = true;
      break;
    }
    struct pollfd p = {.fd = fds[0], .events = POLLIN};
    int n = poll(&p, 1, (int)left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      timed_out = n == 0;
      break;
    }
    char buf[256];
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    size_t take = (size_t)got < outlen - 1 - len ? (size_t)got : outlen - 1 - len;
    memcpy(out + len, buf, take);
    len += take;
  }
  out[len] = '\0';
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return !timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What `import tvm` would find, as the TVM scripts import it: "VERSION DIRECTORY", exit 0; exit 3
   when there is no tvm package.  The version is read from tvm/_ffi/libinfo.py (where every release
   and wheel keeps __version__) without loading libtvm.so; a package without that file is imported. */
static const char detect_py[] =
    "import os, re, sys\n"
    "h = os.environ.get('TVM_HOME')\n"
    "if h: sys.path.insert(0, os.path.join(h, 'python'))\n"
    "import importlib.util\n"
    "s = importlib.util.find_spec('tvm')\n"
    "if s is None or not s.origin: sys.exit(3)\n"
    "d = os.path.dirname(s.origin)\n"
    "try:\n"
    "    m = re.search(r'^__version__ *= *[\"\\']([^\"\\']+)', open(os.path.join(d, '_ffi', 'libinfo.py')).read(), re.M)\n"
    "except OSError:\n"
    "    m = None\n"
    "if m: v = m.group(1)\n"
    "else:\n"
    "    import tvm\n"
    "    v = tvm.__version__\n"
    "print(v, d)\n";

/* The default: the importable TVM's release, else the newest. */
static void detect(void) {
  tvm.release = TVM_RELEASES - 1;
  const char *env = getenv("RELAYKIT_TVM_VERSION");
  char note[256] = "", err[256] = "";
  if (env && *env) {
    TvmRelease r;
    int k = read_version(env, true, &r, note, sizeof note, err, sizeof err);
    if (k >= 0) {
      tvm.release = r;
      snprintf(tvm.how, sizeof tvm.how, "RELAYKIT_TVM_VERSION=%s", env);
      if (k == 1) fprintf(stderr, "%s: note: %s\n", program_invocation_short_name, note);
      return;
    }
    fprintf(stderr, "%s: note: RELAYKIT_TVM_VERSION: %s; ignored\n", program_invocation_short_name, err);
  }
  const char *py = getenv("RELAYKIT_PYTHON");
  if (!py || !*py) py = "python3";
  char *argv[] = {(char *)py, "-c", (char *)detect_py, NULL};
  char out[600];
  int rc = capture(argv, out, sizeof out, DETECT_TIMEOUT_S);
  char *space = strchr(out, ' '), *nl = strchr(out, '\n');
  if (rc != 0 || !space || !nl) {
    snprintf(tvm.how, sizeof tvm.how, "the newest: %.200s %s", py,
             rc == -1 ? "did not say in time which TVM it imports" : "imports no TVM");
    tvm.open = true;
    export_choice();
    return;
  }
  *space = *nl = '\0';
  TvmRelease r;
  int k = read_version(out, true, &r, note, sizeof note, err, sizeof err);
  if (k < 0) {
    snprintf(tvm.how, sizeof tvm.how, "the newest: the TVM %.200s imports, %.60s at %.500s, has no Relay registry relaykit knows",
             py, out, space + 1);
    fprintf(stderr, "%s: note: %s; checking against v%s\n", program_invocation_short_name, err, releases[tvm.release].full);
    tvm.open = true;
  } else {
    tvm.release = r;
    snprintf(tvm.how, sizeof tvm.how, "the TVM %.200s imports: %.60s at %.500s", py, out, space + 1);
    if (k == 1) fprintf(stderr, "%s: note: %s\n", program_invocation_short_name, note);
  }
  export_choice();
}

TvmRelease op_tvm(void) {
  if (!tvm.chosen) {
    tvm.chosen = true;
    detect();
  }
  return tvm.release;
}

const char *op_tvm_name(void) { return releases[op_tvm()].full; }

bool op_tvm_first_check(void) {
  op_tvm();
  bool first = tvm.open && !tvm.checked;
  tvm.checked = true;
  return first;
}

void op_tvm_try(TvmRelease r) { tvm.release = r; }

void op_tvm_settle_on(TvmRelease r, const char *file) {
  TvmRelease newest = TVM_RELEASES - 1;
  tvm.release = r;
  tvm.open = false;
  snprintf(tvm.how, sizeof tvm.how, "%.400s type-checks under it, not under the newest, v%s, and no TVM says which",
           file, releases[newest].full);
  fprintf(stderr,
          "%s: note: %s type-checks under TVM v%s's Relay registry, not v%s's; with no TVM to say which release "
          "(--tvm-version chooses), it is checked against v%s\n",
          program_invocation_short_name, file, releases[r].full, releases[newest].full, releases[r].full);
  export_choice();
}

const char *op_tvm_how(void) {
  op_tvm();
  return tvm.how;
}

bool op_tvm_option(const char *arg) {
  char err[256];
  if (op_tvm_choose(arg, err, sizeof err)) return true;
  fprintf(stderr, "%s: --tvm-version: %s\n", program_invocation_short_name, err);
  return false;
}

int op_tvm_print_version(const char *prog) {
  int rc = cli_version(prog);
  printf("checks against TVM v%s's Relay registry (%s)\n", op_tvm_name(), op_tvm_how());
  return rc;
}
