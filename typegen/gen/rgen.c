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
    "                     (and, under a policy with \"directed\": true, on the programs before it)\n"
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
    "                     poly adt ref side_op dynamic (0 unless given: a detour through\n"
    "                     `?` sizes, shape_of -> dyn.reshape -> a broadcast back)\n"
    "      --list-ops     print the operators the generator can call within the policy and its\n"
    "                     type limits, one per line, and exit\n"
    OP_TVM_VERSION_HELP
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

/* What the command line asks for. */
typedef struct RgenOptions {
  GenPolicy policy;
  Arena arena; /* the policy's strings */
  unsigned long long n, seed, calls;
  const char *out_dir, *type;
  bool list, stats, json;
} RgenOptions;

/* Applies option c (getopt_long's) with its argument; -1 to go on, else the exit status. */
static int apply_option(RgenOptions *o, int c, const char *arg) {
  unsigned long long v;
  switch (c) {
  case 'n':
    if (!parse_u64(arg, &o->n) || o->n > 100000000) return die_usage("-n takes a count", arg);
    break;
  case 'o': o->out_dir = arg; break;
  case OPT_SEED:
    if (!parse_u64(arg, &o->seed)) return die_usage("--seed takes a non-negative integer", arg);
    break;
  case OPT_TYPE: o->type = arg; break;
  case OPT_POLICY: break; /* read first */
  case OPT_FUEL:
    if (!parse_u64(arg, &v) || v > 100000) return die_usage("--fuel takes a count", arg);
    o->policy.fuel = (unsigned)v;
    break;
  case OPT_OPS: o->policy.allow_ops = split_list(arg, &o->arena, &o->policy.nallow); break;
  case OPT_DENY: o->policy.deny_ops = split_list(arg, &o->arena, &o->policy.ndeny); break;
  case OPT_MAX_RANK:
    if (!parse_u64(arg, &v)) return die_usage("--max-rank takes a count", arg);
    o->policy.types.max_rank = (unsigned)v;
    break;
  case OPT_MAX_DIM:
    if (!parse_u64(arg, &v)) return die_usage("--max-dim takes a count", arg);
    o->policy.types.max_dim = (int64_t)v;
    break;
  case OPT_MAX_ELEMENTS:
    if (!parse_u64(arg, &v)) return die_usage("--max-elements takes a count", arg);
    o->policy.types.max_elements = (int64_t)v;
    break;
  case OPT_FLOPS:
    if (!parse_u64(arg, &v)) return die_usage("--flops-budget takes a count", arg);
    o->policy.flops_budget = (int64_t)v;
    break;
  case OPT_WEIGHT: {
    const char *eq = strchr(arg, '=');
    char name[32];
    if (!eq || (size_t)(eq - arg) >= sizeof name || !parse_u64(eq + 1, &v)) return die_usage("--weight takes NAME=W", arg);
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    if (!gen_policy_set_weight(&o->policy, name, (long long)v)) return die_usage("unknown construct", name);
    break;
  }
  case OPT_FORWARD: o->policy.forward = true; break;
  case OPT_LIST: o->list = true; break;
  case OPT_STATS: o->stats = true; break;
  case OPT_JSON: o->json = true; break;
  case OPT_CALLS:
    if (!parse_u64(arg, &o->calls) || o->calls == 0) return die_usage("--calls takes a count", arg);
    break;
  case OP_OPT_TVM_VERSION:
    if (!op_tvm_option(arg)) return 2;
    break;
  case OPT_VERSION: return op_tvm_print_version("rgen");
  case 'h': fputs(usage, stdout); return 0;
  default: return cli_bad_option("rgen");
  }
  return -1;
}

/* Reads the command line into o (a policy file first, so that flags given anywhere override it);
   -1 to go on, else the exit status (help, version, a usage error). */
static int parse_options(int argc, char **argv, RgenOptions *o) {
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
      OP_TVM_VERSION_OPTION,                             {NULL, 0, NULL, 0},
  };
  char err[512];
  for (int i = 1; i < argc - 1; i++) /* the release first: a policy's operators are looked up in it */
    if (!strcmp(argv[i], "--tvm-version") && !op_tvm_option(argv[i + 1])) return 2;
  for (int i = 1; i < argc - 1; i++)
    if (!strcmp(argv[i], "--policy") && !gen_policy_load(&o->policy, argv[i + 1], &o->arena, err, sizeof err)) {
      fprintf(stderr, "rgen: %s\n", err);
      return 2;
    }
  int c, status;
  cli_name(argv, "rgen");
  while ((c = getopt_long(argc, argv, "n:o:h", longopts, NULL)) != -1)
    if ((status = apply_option(o, c, optarg)) >= 0) return status;
  if (optind < argc) return die_usage("unexpected argument", argv[optind]);
  if (!gen_policy_check(&o->policy, err, sizeof err)) return die_usage(err, NULL);
  return -1;
}

/* --list-ops: the operators the policy lets the generator use, within its type limits. */
static int list_ops(const GenPolicy *policy) {
  size_t count;
  const OpDef *const *ops = op_all(&count);
  for (size_t i = 0; i < count; i++)
    if (gen_op_fits(policy, ops[i])) puts(ops[i]->name);
  return 0;
}

/* Programs 0..n-1 of the run (with --calls, until that many calls were made), to standard output
   or -o's directory, then the statistics --stats asks for. */
static int generate(RgenOptions *o) {
  if (o->out_dir && mkdir(o->out_dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "rgen: %s: %s\n", o->out_dir, strerror(errno));
    return 2;
  }
  if (o->calls && !o->stats) return die_usage("--calls goes with --stats", NULL);
  unsigned long long n = o->n;
  GenStats *st = o->stats ? gen_stats_new(&o->policy) : NULL;
  GenHistory *history = o->policy.directed ? gen_history_new() : NULL; /* programs 0..k-1 direct k */
  if (o->calls) {
    gen_stats_limit(st, o->calls);
    n = 100000000; /* until the calls are made */
  }
  int width = 5, status = 0;
  for (unsigned long long m = n; m >= 100000; m /= 10) width++;
  char err[512];
  for (unsigned long long k = 0; k < n && status == 0 && !(o->calls && gen_stats_full(st)); k++) {
    AstModule *m = gen_module_in_run(&o->policy, history, o->seed, k, o->type, st ? gen_stats_hook : NULL, st,
                                     err, sizeof err);
    if (!m) {
      fprintf(stderr, "rgen: %s\n", err);
      status = 2;
      break;
    }
    if (st) gen_stats_module(st, m);
    char *text = ast_print(m, NULL);
    if (o->out_dir) {
      char *path = arena_printf(&o->arena, "%s/%0*llu.relay", o->out_dir, width, k);
      if (!file_replace(path, text, strlen(text))) status = 2;
    } else if (!o->stats || n == 1) {
      fputs(text, stdout);
      if (k + 1 < n) fputc('\n', stdout);
    }
    free(text);
    ast_free(m);
  }
  if (st && status == 0) {
    char *report = gen_stats_report(st, 2000, o->json);
    fputs(report, stdout);
    free(report);
  }
  gen_stats_free(st);
  gen_history_free(history);
  return status;
}

int main(int argc, char **argv) {
  RgenOptions o = {.n = 1};
  gen_policy_default(&o.policy);
  arena_init(&o.arena);
  int status = parse_options(argc, argv, &o);
  if (status < 0) status = o.list ? list_ops(&o.policy) : generate(&o);
  arena_free(&o.arena);
  return cli_exit(status);
}
