/* rfuzz plot: coverage and bug groups over time, of one campaign or several on one plot (for a
   comparison: bench/coverage.sh's arms), drawn by gnuplot from each campaign's progress.jsonl. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../support/cli.h"
#include "../support/fileio.h"
#include "campaign.h"

static const char plot_usage[] =
    "usage: rfuzz plot [-o PREFIX] [--title T] CAMPAIGN...\n"
    "Draws, for each campaign, TVM's edges reached (with coverage feedback; else the features) and\n"
    "the bug groups found, over campaign time, one line per campaign, into PREFIX.png and PREFIX.svg\n"
    "(default: the first campaign's plot.png and plot.svg, which its index.md links). Needs gnuplot\n"
    "(Debian: gnuplot-nox).\n"
    "exit status: 0 drawn, 2 usage error, no progress to draw, or gnuplot failed\n";

/* CAMPAIGN/progress.jsonl as gnuplot data (minutes, edges or features, bug groups); the rows. */
static size_t write_data(const char *campaign, FILE *out, bool *edges, long long *max_bugs) {
  char path[4096];
  snprintf(path, sizeof path, "%s/progress.jsonl", campaign);
  FILE *in = fopen(path, "r");
  if (!in) return 0;
  char *line = NULL;
  size_t cap = 0, rows = 0;
  while (getline(&line, &cap, in) > 0) {
    json_t *j = json_loads(line, 0, NULL);
    json_t *sec = json_object_get(j, "seconds"), *e = json_object_get(j, "edges"), *f = json_object_get(j, "features"),
           *b = json_object_get(j, "bugs");
    if (json_is_number(sec) && json_is_integer(e) && json_is_integer(b)) {
      if (json_integer_value(e) > 0) *edges = true;
      if (json_integer_value(b) > *max_bugs) *max_bugs = json_integer_value(b);
      fprintf(out, "%.4f %lld %lld %lld\n", json_number_value(sec) / 60, (long long)json_integer_value(e),
              (long long)(json_is_integer(f) ? json_integer_value(f) : 0), (long long)json_integer_value(b));
      rows++;
    }
    json_decref(j);
  }
  free(line);
  fclose(in);
  return rows;
}

/* The gnuplot script: two panels, each campaign a line in both. */
static void script(FILE *g, int n, char *const *campaigns, const char *const *data, const char *prefix,
                   const char *title, bool edges, long long max_bugs) {
  const char *what = edges ? "TVM edges reached" : "features reached";
  int column = edges ? 2 : 3;
  const char *terms[2][2] = {{"pngcairo size 1000,700", "png"}, {"svg size 1000,700", "svg"}};
  for (int t = 0; t < 2; t++) {
    fprintf(g, "set terminal %s\nset output '%s.%s'\n", terms[t][0], prefix, terms[t][1]);
    fprintf(g, "set multiplot layout 2,1 title '%s'\nset key left top\nset grid\n", title);
    fprintf(g, "set xlabel 'minutes'\nset ylabel '%s'\nset autoscale y\nset format y '%%g'\nplot ", what);
    for (int i = 0; i < n; i++)
      fprintf(g, "%s'%s' using 1:%d with steps title '%s'", i ? ", " : "", data[i], column, campaigns[i]);
    /* whole groups; a campaign without any still gets an axis (gnuplot refuses the range 0:0) */
    fprintf(g, "\nset ylabel 'bug groups'\nset format y '%%.0f'\nset yrange [0:%s]\nplot ", max_bugs ? "*" : "1");
    for (int i = 0; i < n; i++) fprintf(g, "%s'%s' using 1:4 with steps title '%s'", i ? ", " : "", data[i], campaigns[i]);
    fprintf(g, "\nunset multiplot\nset output\n");
  }
}

/* Whether gnuplot is on PATH: a campaign draws its plot at the end only then (quietly). */
bool fuzz_plot_available(void) {
  const char *path = getenv("PATH");
  char file[4096];
  for (const char *p = path ? path : ""; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(file, sizeof file, "%.*s/gnuplot", (int)len, len ? p : ".");
    if (access(file, X_OK) == 0) return true;
    p += len + (p[len] == ':');
  }
  return false;
}

int fuzz_plot(int n, char *const *campaigns, const char *prefix, const char *title) {
  char tmpdir[] = "/tmp/rfuzz-plot.XXXXXX";
  if (!mkdtemp(tmpdir)) return fprintf(stderr, "rfuzz plot: cannot make a temporary directory\n"), 2;
  char **data = xcalloc((size_t)n, sizeof *data);
  bool edges = false;
  long long max_bugs = 0;
  int status = 0;
  for (int i = 0; i < n && !status; i++) {
    data[i] = xmalloc(strlen(tmpdir) + 32);
    sprintf(data[i], "%s/%d.dat", tmpdir, i);
    FILE *out = fopen(data[i], "w");
    size_t rows = out ? write_data(campaigns[i], out, &edges, &max_bugs) : 0;
    if (out) fclose(out);
    if (!rows) {
      fprintf(stderr, "rfuzz plot: %s: no progress.jsonl to draw\n", campaigns[i]);
      status = 2;
    }
  }
  char default_prefix[4096];
  snprintf(default_prefix, sizeof default_prefix, "%s/plot", campaigns[0]);
  if (!prefix) prefix = default_prefix;
  if (!status) {
    FILE *g = popen("gnuplot 2>&1", "w");
    if (!g) {
      fprintf(stderr, "rfuzz plot: cannot run gnuplot: %s\n", strerror(errno));
      status = 2;
    } else {
      script(g, n, campaigns, (const char *const *)data, prefix, title, edges, max_bugs);
      int rc = pclose(g);
      if (rc != 0) {
        fprintf(stderr, "rfuzz plot: gnuplot failed (exit %d; Debian: apt-get install gnuplot-nox)\n",
                WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
        status = 2;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    if (data[i]) unlink(data[i]);
    free(data[i]);
  }
  free(data);
  rmdir(tmpdir);
  return status;
}

int fuzz_plot_main(int argc, char **argv) {
  const char *prefix = NULL, *title = "rfuzz";
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (!strcmp(argv[first], "-o") && first + 1 < argc) prefix = argv[++first];
    else if (!strcmp(argv[first], "--title") && first + 1 < argc) title = argv[++first];
    else if (!strcmp(argv[first], "-h") || !strcmp(argv[first], "--help")) return fputs(plot_usage, stdout), 0;
    else return fprintf(stderr, "rfuzz plot: unknown option %s\n%s", argv[first], plot_usage), 2;
  }
  int n = argc - first;
  if (n < 1) return fprintf(stderr, "rfuzz plot: give at least one CAMPAIGN\n%s", plot_usage), 2;
  int status = fuzz_plot(n, argv + first, prefix, title);
  if (!status && prefix) fprintf(stderr, "rfuzz plot: %s.png, %s.svg\n", prefix, prefix);
  else if (!status) fprintf(stderr, "rfuzz plot: %s/plot.png, %s/plot.svg\n", argv[first], argv[first]);
  return status;
}
