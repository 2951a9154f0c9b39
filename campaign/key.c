/* rfuzz key: the group key and class rfuzz gives failures, for failures met outside a campaign
   (bench/triage.sh scores rfuzz's grouping on programs it did not make). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/cli.h"
#include "campaign.h"

static const char key_usage[] =
    "usage: rfuzz key [--limitations FILE] < FAILURES.jsonl\n"
    "Reads one failure a line, {\"signature\": S, \"timed_out\": B, \"outcome\": O} (O: the oracle's outcome\n"
    "object, PROTOCOL.md, or null), and writes {\"key\": K, \"class\": C, \"rule\": R} a line: the group\n"
    "key and class an rfuzz campaign gives that failure, and the rule that decided the class.\n"
    "exit status: 0, 2 usage error or a line that is not such an object\n";

int fuzz_key_main(int argc, char **argv) {
  const char *limitations = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--limitations") && i + 1 < argc) limitations = argv[++i];
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return fputs(key_usage, stdout), 0;
    else return fprintf(stderr, "rfuzz key: unexpected argument '%s'\n%s", argv[i], key_usage), 2;
  }
  FailRules rules;
  fail_rules_init(&rules);
  char err[512];
  if ((limitations && !fail_rules_load(&rules, limitations, err, sizeof err)) || !fail_rules_shipped(&rules, err, sizeof err)) {
    fprintf(stderr, "rfuzz key: --limitations %s\n", err);
    fail_rules_free(&rules);
    return 2;
  }
  char *line = NULL;
  size_t cap = 0;
  unsigned long n = 0;
  int status = 0;
  while (getline(&line, &cap, stdin) > 0) {
    n++;
    json_error_t je;
    json_t *j = json_loads(line, 0, &je);
    json_t *sig = json_object_get(j, "signature"), *outcome = json_object_get(j, "outcome");
    if (!json_is_object(j) || !json_is_string(sig)) {
      fprintf(stderr, "rfuzz key: line %lu: not {\"signature\": ..., ...}\n", n);
      json_decref(j);
      status = 2;
      break;
    }
    char *text = json_is_object(outcome) ? json_dumps(outcome, JSON_COMPACT) : NULL;
    Outcome f;
    outcome_read(&f, text);
    char *key, *match;
    fail_group_key(&f, json_is_true(json_object_get(j, "timed_out")), json_string_value(sig), &key, &match);
    /* the programs a campaign sends are ones relaykit's checker accepts */
    char *rule;
    FailClass cls = fail_classify(&rules, json_string_value(sig), &f, ACCEPTED_YES, &rule);
    json_t *out = json_pack("{s:s, s:s, s:s}", "key", key, "class", fail_class_names[cls], "rule", rule);
    free(rule);
    char *s = json_dumps(out, JSON_COMPACT);
    puts(s);
    free(s);
    json_decref(out);
    free(key);
    free(match);
    free(text);
    outcome_free(&f);
    json_decref(j);
  }
  free(line);
  fail_rules_free(&rules);
  return status;
}
