/* rfuzz merge: shards of one campaign (or several campaigns) joined into one directory, by the
   rule a campaign groups by (triage.c): groups with the same key are one group (counts add up, the
   earliest first failure is kept, one reduction serves the group: a shard's, else one made here
   when --oracle is given), and groups whose reduced programs failed the same way are one too. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/cli.h"
#include "../support/fileio.h"
#include "campaign.h"

static const char merge_usage[] =
    "usage: rfuzz merge [options] -o OUT CAMPAIGN...\n"
    "Joins campaigns (the shards of `rfuzz --shard I/N`) into OUT: groups merged by signature, their\n"
    "counts added, the earliest first program kept, one reduction per group; reduced groups of one\n"
    "root cause merged as in a campaign (one reduced key, one skeleton, or sibling operators).\n"
    "\n"
    "options:\n"
    "  -o OUT             the merged campaign (created; an existing merge is replaced)\n"
    "      --oracle CMD   reduce here the groups no shard reduced (as rfuzz --oracle), and ask the\n"
    "                     reduced key of a reduced group that has none (a campaign that ended first)\n"
    "      --reduce-minutes M   at most M minutes per group (default 10)\n"
    "      --rreduce PATH the rreduce to use (default: the one beside rfuzz)\n"
    "      --tvm HOME[:LIB]  another TVM build you have, once per release (as rfuzz --tvm; needs\n"
    "                     --oracle): each root bug group's reduced program is asked of it too\n"
    "  -h, --help         this help\n"
    "\n"
    "exit status: 0 merged, 2 usage or I/O error\n";

static const char *const group_files[] = {"first.relay", "signature", "args", "reduced.relay", "reduced.relay.pipeline", "report.md",
                                          "rreduce.log"};

static bool copy_group_files(const Campaign *from, unsigned from_id, const Campaign *to, unsigned to_id) {
  char *dir = campaign_path(to, "groups/%03u", to_id);
  bool ok = mkdir(dir, 0777) == 0 || errno == EEXIST;
  free(dir);
  for (size_t i = 0; ok && i < sizeof group_files / sizeof *group_files; i++) {
    char *src = campaign_path(from, "groups/%03u/%s", from_id, group_files[i]);
    char *dst = campaign_path(to, "groups/%03u/%s", to_id, group_files[i]);
    size_t len;
    char *data = access(src, F_OK) == 0 ? file_read(src, &len) : NULL; /* absent: not reduced */
    if (data) ok = file_replace(dst, data, len);
    else unlink(dst); /* this shard has none: no stale file from another */
    free(data);
    free(src);
    free(dst);
  }
  return ok;
}

static bool reduced(const FuzzGroup *g) { return g->reduced_bytes >= 0; }

typedef struct MergeOptions {
  const char *out, *oracle, *rreduce;
  double minutes;
  Tvms tvms; /* --tvm: other TVM builds each root bug group is asked of */
} MergeOptions;

/* Reads the command line; -1 to go on, else the exit status.  The campaigns are argv[optind..]. */
static int parse_options(int argc, char **argv, MergeOptions *o) {
  static const struct option longopts[] = {
      {"oracle", required_argument, NULL, 'O'}, {"reduce-minutes", required_argument, NULL, 'M'},
      {"rreduce", required_argument, NULL, 'R'}, {"tvm", required_argument, NULL, 'T'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  *o = (MergeOptions){.minutes = 10};
  int ch;
  optind = 1;
  while ((ch = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
    switch (ch) {
    case 'o': o->out = optarg; break;
    case 'O': o->oracle = optarg; break;
    case 'R': o->rreduce = optarg; break;
    case 'T': {
      char err[1024];
      if (!tvm_add(&o->tvms, optarg, err, sizeof err)) return fprintf(stderr, "rfuzz merge: %s\n", err), 2;
      break;
    }
    case 'M': {
      char *end;
      o->minutes = strtod(optarg, &end);
      if (*end || !(o->minutes > 0)) return fprintf(stderr, "rfuzz merge: --reduce-minutes takes a positive number\n"), 2;
      break;
    }
    case 'h': fputs(merge_usage, stdout); return 0;
    default: return cli_bad_option("rfuzz merge");
    }
  }
  if (!o->out || optind >= argc) return fprintf(stderr, "rfuzz merge: give -o OUT and at least one CAMPAIGN\ntry 'rfuzz merge --help'\n"), 2;
  if (o->oracle && !strstr(o->oracle, "--args-beside"))
    return fprintf(stderr, "rfuzz merge: --oracle must be a server with --args-beside\n"), 2;
  if (o->tvms.len && !o->oracle) return fprintf(stderr, "rfuzz merge: --tvm needs --oracle (the check asked of each TVM)\n"), 2;
  return -1;
}

/* Campaign c's groups into m: a group new to m comes with its files, one m has adds its count and
   brings its reduction when m's has none; false when a group's files cannot be copied. */
static bool merge_groups(Campaign *m, const Campaign *c, const char *name) {
  for (size_t i = 0; i < c->groups.len; i++) {
    const FuzzGroup *g = &c->groups.items[i];
    FuzzGroup *t = campaign_group(m, g->key);
    bool take_files = false;
    if (!t) {
      FuzzGroup ng = {.id = (unsigned)m->groups.len + 1, .key = xstrdup(g->key), .signature = xstrdup(g->signature),
                      .match = g->match ? xstrdup(g->match) : NULL, .args = xstrdup(g->args), .count = 0,
                      .cls = g->cls, .rule = g->rule ? xstrdup(g->rule) : NULL,
                      .tvm_verdicts = g->tvm_verdicts ? xstrdup(g->tvm_verdicts) : NULL,
                      .step = g->step ? xstrdup(g->step) : NULL, .reduced_key = g->reduced_key ? xstrdup(g->reduced_key) : NULL,
                      .frame = g->frame ? xstrdup(g->frame) : NULL,
                      .first_program = g->first_program, .first_seconds = g->first_seconds,
                      .first_bytes = g->first_bytes, .reduced_bytes = g->reduced_bytes, .status = xstrdup(g->status)};
      VEC_PUSH(m->groups, ng);
      t = &m->groups.items[m->groups.len - 1];
      take_files = true;
    } else if (!reduced(t) && reduced(g)) { /* one reduction per group: the first one made */
      take_files = true;
    }
    t->count += g->count;
    if (g->first_program < t->first_program) t->first_program = g->first_program;
    if (!take_files) continue;
    if (t->count != g->count) { /* an earlier shard's group, now with this shard's reduction */
      free(t->status);
      t->status = xstrdup(g->status);
      free(t->reduced_key);
      t->reduced_key = g->reduced_key ? xstrdup(g->reduced_key) : NULL;
      t->reduced_bytes = g->reduced_bytes;
      t->first_bytes = g->first_bytes;
      free(t->args);
      t->args = xstrdup(g->args);
    }
    if (!copy_group_files(c, g->id, m, t->id)) {
      fprintf(stderr, "rfuzz merge: cannot copy group %u of %s into %s\n", g->id, name, m->dir);
      return false;
    }
  }
  return true;
}

/* Groups whose reduced programs show one root cause (fuzz_one_cause) are one bug, as in a
   campaign: the later is merged into the earlier. */
static void merge_reduced(Campaign *m) {
  for (size_t i = 0; i < m->groups.len; i++) {
    FuzzGroup *g = &m->groups.items[i];
    g->merged_into = 0; /* the shards' own merges are redone over the whole */
  }
  for (size_t i = 0; i < m->groups.len; i++) {
    FuzzGroup *g = &m->groups.items[i];
    if (!g->reduced_key) continue;
    for (size_t j = 0; j < i; j++) { /* every pair: a cause's groups may chain by different rules */
      FuzzGroup *h = &m->groups.items[j];
      if (!fuzz_one_cause(m, g, h)) continue;
      FuzzGroup *a = fuzz_root_group(m, g), *b = fuzz_root_group(m, h);
      if (a == b) continue;
      if (a->id < b->id) b->merged_into = a->id; /* the earlier group stays */
      else a->merged_into = b->id;
    }
  }
  for (size_t i = 0; i < m->groups.len; i++) { /* each merged group names its root */
    FuzzGroup *g = &m->groups.items[i];
    if (g->merged_into) g->merged_into = fuzz_root_group(m, g)->id;
  }
}

/* c's known bugs met, into m's: counts added, the earliest meeting kept. */
static void merge_known(Campaign *m, const Campaign *c) {
  for (size_t i = 0; i < c->known_met.len; i++) {
    const FuzzKnownMet *k = &c->known_met.items[i];
    size_t j = 0;
    while (j < m->known_met.len && strcmp(m->known_met.items[j].id, k->id)) j++;
    if (j == m->known_met.len) {
      VEC_PUSH(m->known_met, ((FuzzKnownMet){xstrdup(k->id), k->first_seconds, k->first_program, k->count}));
      continue;
    }
    FuzzKnownMet *t = &m->known_met.items[j];
    t->count += k->count;
    if (k->first_seconds < t->first_seconds) t->first_seconds = k->first_seconds, t->first_program = k->first_program;
  }
}

static bool timeout_key(const char *key) {
  size_t n = strlen(key);
  return n >= 7 && !strcmp(key + n - 7, "timeout");
}

int fuzz_merge_main(int argc, char **argv) {
  MergeOptions o;
  int status = parse_options(argc, argv, &o);
  if (status >= 0) return tvms_free(&o.tvms), status;
  if (mkdir(o.out, 0777) != 0 && errno != EEXIST) return fprintf(stderr, "rfuzz merge: %s: %s\n", o.out, strerror(errno)), tvms_free(&o.tvms), 2;
  Campaign m;
  campaign_init(&m, o.out);
  m.shard = 0;
  m.nshards = (unsigned)(argc - optind);
  char *groups_dir = campaign_path(&m, "groups");
  mkdir(groups_dir, 0777);
  free(groups_dir);
  status = 0;
  char err[512];
  for (int k = optind; k < argc && !status; k++) {
    Campaign c;
    campaign_init(&c, argv[k]);
    bool found;
    if (!campaign_load(&c, &found, err, sizeof err) || !found) {
      fprintf(stderr, "rfuzz merge: %s: %s\n", argv[k], found ? err : "no campaign.json here");
      status = 2;
    }
    if (k == optind) {
      m.seed = c.seed;
      m.oracle = c.oracle ? xstrdup(c.oracle) : NULL;
    }
    m.seconds += c.seconds;
    fuzz_counts_add(&m.n, &c.n);
    merge_known(&m, &c);
    if (c.feedback == FB_COVERAGE || c.feedback == FB_BOTH) { /* the union of the shards' edges */
      if (m.feedback != FB_BOTH) m.feedback = c.feedback;
      for (size_t byte = 0; byte < c.edges.cap; byte++)
        for (unsigned bit = 0; bit < 8; bit++)
          if (c.edges.bits[byte] >> bit & 1) fuzz_edges_add(&m.edges, (uint32_t)(byte * 8 + bit));
      if (c.edges_total > m.edges_total) m.edges_total = c.edges_total;
    } else if (m.feedback == FB_AUTO) {
      m.feedback = c.feedback;
    }
    if (!status && !merge_groups(&m, &c, argv[k])) status = 2;
    campaign_free(&c);
  }
  if (!status && o.oracle) {
    char *rr = o.rreduce ? xstrdup(o.rreduce) : cli_sibling("rreduce");
    for (size_t i = 0; i < m.groups.len; i++) {
      FuzzGroup *g = &m.groups.items[i];
      if (reduced(g) || timeout_key(g->key) || g->cls != FAIL_BUG) continue; /* as rfuzz reduces by default */
      fuzz_reduce_group(&m, g, rr, o.oracle, o.minutes, NULL);
    }
    free(rr);
    /* a reduced group the campaign ended before it asked its reduced key of (or that asked it
       without the reduced pipeline): asked now, so root causes merge as in a campaign */
    RunOptions ro;
    run_options_default(&ro);
    ServerPool *pool = server_pool_new(o.oracle, 1, &ro);
    for (size_t i = 0; i < m.groups.len; i++) {
      FuzzGroup *g = &m.groups.items[i];
      char why[512];
      if (reduced(g) && !g->reduced_key && !timeout_key(g->key) && !fuzz_reduced_key(&m, g, pool, why, sizeof why))
        fprintf(stderr, "rfuzz merge: group %03u: its reduced program's key is unknown (%s): it merges with no other\n",
                g->id, why);
    }
    server_pool_free(pool);
  }
  if (!status) {
    merge_reduced(&m);
    /* each root cause's report, with the groups it absorbed over every campaign and what each
       other TVM says of it */
    for (size_t i = 0; i < m.groups.len; i++) {
      FuzzGroup *g = &m.groups.items[i];
      if (o.tvms.len) fuzz_tvm_verdicts(&m, g, &o.tvms, o.oracle);
      if (fuzz_is_root_bug(g) && !fuzz_write_issue(&m, g)) {
        fprintf(stderr, "rfuzz merge: cannot write groups/%03u/issue.md in %s\n", g->id, o.out);
        status = 2;
      }
    }
  }
  if (!status && !campaign_save(&m, err, sizeof err)) {
    fprintf(stderr, "rfuzz merge: %s\n", err);
    status = 2;
  }
  if (!status)
    fprintf(stderr, "rfuzz merge: %u campaigns, %lu programs, %zu groups, %zu edges of TVM -> %s/index.md\n",
            m.nshards, m.n.programs, m.groups.len, m.edges.count, o.out);
  campaign_free(&m);
  tvms_free(&o.tvms);
  return status;
}
