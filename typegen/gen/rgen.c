/* rgen: random well-typed Relay programs. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../support/cli.h"
#include "../../support/fileio.h"
#include "gen.h"

static const char usage[] =
    "usage: rgen [options]\n"
    "Generates random, well-typed Relay programs (TVM's text format 0.0.5) by following the\n"
    "typing rules backwards from a type.\n"
    "\n"
    "options:\n"
    "  -n N               how many programs (default 1); program k depends only on --seed and k\n"
    "  -o DIR             write them to DIR/00000.relay, ... instead of standard output\n"
    "      --seed S       the run's seed (default 0)\n"
    "      --type T       the type @main returns, e.g. 'Tensor[(1, 3, 32, 32), float32]'\n"
    "                     (default: a random type per program)\n"
    "      --policy FILE  a JSON policy (see examples/policy-*.json); flags below override it\n"
    "      --fuel N       operator calls per program, roughly (default 32)\n"
    "      --ops A,B,...  only these operators;   --deny-ops A,B,...  never these\n"
    "      --max-rank N, --max-dim N, --max-elements N, --flops-budget N   type and cost limits\n"
    "      --forward      grow programs forward from @main's inputs: a tensor leaf is an earlier\n"
    "                     value adapted by cast/reshape/strided_slice/tile/broadcast_to (used even\n"
    "                     when --ops leaves them out, never when --deny-ops names them), not zeros\n"
    "      --weight NAME=W  a construct's weight: op reuse let if tuple closure global recursion\n"
    "                     poly adt ref side_op\n"
    "      --list-ops     print the operators the generator knows, one per line, and exit\n"
    "      --stats        print the op histogram, GenCoG's vertex and edge diversity, and how\n"
    "                     many operator calls in @main depend on an input (adapters count too)\n"
    "      --json         with --stats: as JSON\n"
    "      --calls N      with --stats: generate programs until N operator calls were made\n"
    "  -h, --help         show this help\n"
    "\n"
    "exit status: 0 success, 2 usage or I/O error\n";

enum { OPT_SEED = 256, OPT_VERSION, OPT_TYPE, OPT_POLICY, OPT_FUEL, OPT_OPS, OPT_DENY, OPT_MAX_RANK, OPT_MAX_DIM,
       OPT_MAX_ELEMENTS, OPT_FLOPS, OPT_WEIGHT, OPT_LIST, OPT_STATS, OPT_JSON, OPT_CALLS, OPT_FORWARD };

/* Splits "a,b,c" into strings living in `arena`. */
static const char **split_list(const char *s, Arena *arena, size_t *n) {
  char *copy = arena_strdup(arena, s);
  size_t cap = 1;
  for (const char *p = s; *p; p++) cap += *p == ',';
  const char **out = arena_alloc(arena, cap * sizeof *out);
  *n = 0;
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) out[(*n)++] = tok;
  return out;
}

static bool parse_u64(const char *s, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *s == '\0' || *end || *s == '-') return false;
  *out = v;
  return true;
}

static int die_usage(const char *msg, const char *arg) {
  fprintf(stderr, "rgen: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  return 2;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"seed", required_argument, NULL, OPT_SEED},       {"type", required_argument, NULL, OPT_TYPE},
      {"policy", required_argument, NULL, OPT_POLICY},   {"fuel", required_argument, NULL, OPT_FUEL},
      {"ops", required_argument, NULL, OPT_OPS},         {"deny-ops", required_argument, NULL, OPT_DENY},
      {"max-rank", required_argument, NULL, OPT_MAX_RANK}, {"max-dim", required_argument, NULL, OPT_MAX_DIM},
      {"max-elements", required_argument, NULL, OPT_MAX_ELEMENTS},
      {"flops-budget", required_argument, NULL, OPT_FLOPS}, {"weight", required_argument, NULL, OPT_WEIGHT},
      {"list-ops", no_argument, NULL, OPT_LIST},         {"stats", no_argument, NULL, OPT_STATS},
      {"json", no_argument, NULL, OPT_JSON},             {"calls", required_argument, NULL, OPT_CALLS},
      {"forward", no_argument, NULL, OPT_FORWARD},
      {"help", no_argument, NULL, 'h'}, {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0},
  };
  GenPolicy policy;
  gen_policy_default(&policy);
  Arena arena;
  arena_init(&arena);
  unsigned long long n = 1, seed = 0, v, calls = 0;
  const char *out_dir = NULL, *type = NULL;
  bool list = false, stats = false, json = false;
  char err[512];
  int status = 0;
  /* A policy file first, so that flags given anywhere override it. */
  for (int i = 1; i < argc - 1; i++)
    if (!strcmp(argv[i], "--policy") && !gen_policy_load(&policy, argv[i + 1], &arena, err, sizeof err)) {
      fprintf(stderr, "rgen: %s\n", err);
      arena_free(&arena);
      return 2;
    }
  int c;
  cli_name(argv, "rgen");
  while ((c = getopt_long(argc, argv, "n:o:h", longopts, NULL)) != -1) {
    switch (c) {
    case 'n':
      if (!parse_u64(optarg, &n) || n > 100000000) return die_usage("-n takes a count", optarg);
      break;
    case 'o': out_dir = optarg; break;
    case OPT_SEED:
      if (!parse_u64(optarg, &seed)) return die_usage("--seed takes a non-negative integer", optarg);
      break;
    case OPT_TYPE: type = optarg; break;
    case OPT_POLICY: break; /* read above */
    case OPT_FUEL:
      if (!parse_u64(optarg, &v) || v > 100000) return die_usage("--fuel takes a count", optarg);
      policy.fuel = (unsigned)v;
      break;
    case OPT_OPS: policy.allow_ops = split_list(optarg, &arena, &policy.nallow); break;
    case OPT_DENY: policy.deny_ops = split_list(optarg, &arena, &policy.ndeny); break;
    case OPT_MAX_RANK:
      if (!parse_u64(optarg, &v)) return die_usage("--max-rank takes a count", optarg);
      policy.types.max_rank = (unsigned)v;
      break;
    case OPT_MAX_DIM:
      if (!parse_u64(optarg, &v)) return die_usage("--max-dim takes a count", optarg);
      policy.types.max_dim = (int64_t)v;
      break;
    case OPT_MAX_ELEMENTS:
      if (!parse_u64(optarg, &v)) return die_usage("--max-elements takes a count", optarg);
      policy.types.max_elements = (int64_t)v;
      break;
    case OPT_FLOPS:
      if (!parse_u64(optarg, &v)) return die_usage("--flops-budget takes a count", optarg);
      policy.flops_budget = (int64_t)v;
      break;
    case OPT_WEIGHT: {
      const char *eq = strchr(optarg, '=');
      char name[32];
      if (!eq || (size_t)(eq - optarg) >= sizeof name || !parse_u64(eq + 1, &v))
        return die_usage("--weight takes NAME=W", optarg);
      memcpy(name, optarg, (size_t)(eq - optarg));
      name[eq - optarg] = '\0';
      if (!gen_policy_set_weight(&policy, name, (long long)v)) return die_usage("unknown construct", name);
      break;
    }
    case OPT_FORWARD: policy.forward = true; break;
    case OPT_LIST: list = true; break;
    case OPT_STATS: stats = true; break;
    case OPT_JSON: json = true; break;
    case OPT_CALLS:
      if (!parse_u64(optarg, &calls) || calls == 0) return die_usage("--calls takes a count", optarg);
      break;
    case OPT_VERSION: return cli_version("rgen");
    case 'h': fputs(usage, stdout); return 0;
    default: return cli_bad_option("rgen");
    }
  }
  if (optind < argc) return die_usage("unexpected argument", argv[optind]);
  if (!gen_policy_check(&policy, err, sizeof err)) return die_usage(err, NULL);

  if (list) {
    size_t count;
    const OpDef *const *ops = op_all(&count);
    for (size_t i = 0; i < count; i++)
      if (gen_policy_allows(&policy, ops[i])) puts(ops[i]->name);
    arena_free(&arena);
    return 0;
  }
  if (out_dir && mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "rgen: %s: %s\n", out_dir, strerror(errno));
    return 2;
  }
  if (calls && !stats) return die_usage("--calls goes with --stats", NULL);
  GenStats *st = stats ? gen_stats_new(&policy) : NULL;
  if (calls) {
    gen_stats_limit(st, calls);
    n = 100000000; /* until the calls are made */
  }
  int width = 5;
  for (unsigned long long m = n; m >= 100000; m /= 10) width++;
  for (unsigned long long k = 0; k < n && status == 0 && !(calls && gen_stats_full(st)); k++) {
    AstModule *m = gen_module(&policy, seed, k, type, st ? gen_stats_hook : NULL, st, err, sizeof err);
    if (!m) {
      fprintf(stderr, "rgen: %s\n", err);
      status = 2;
      break;
    }
    if (st) gen_stats_module(st, m);
    char *text = ast_print(m, NULL);
    if (out_dir) {
      char *path = arena_printf(&arena, "%s/%0*llu.relay", out_dir, width, k);
      if (!file_replace(path, text, strlen(text))) status = 2;
    } else if (!stats || n == 1) {
      fputs(text, stdout);
      if (k + 1 < n) fputc('\n', stdout);
    }
    free(text);
    ast_free(m);
  }
  if (st && status == 0) {
    char *report = gen_stats_report(st, 2000, json);
    fputs(report, stdout);
    free(report);
  }
  gen_stats_free(st);
  arena_free(&arena);
  return status;
}
