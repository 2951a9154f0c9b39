/* groups/NNN/issue.md: one root cause as a TVM maintainer reads a bug report (campaign.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../typegen/ops/ops.h"
#include "campaign.h"

/* The operators the program calls, in order of first call, comma-separated (at most four). */
static void operators(const char *text, StrBuf *out) {
  static const char *const not_ops[] = {"fn", "if", "let", "match", "ref", "Tensor", "def", "version", NULL};
  StrBuf seen;
  sb_init(&seen);
  size_t n = 0;
  for (const char *p = text; *p && n < 4; p++) {
    if (!isalpha((unsigned char)*p) || (p > text && (isalnum((unsigned char)p[-1]) || strchr("_.%@", p[-1]))))
      continue;
    const char *w = p;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') p++;
    size_t k = (size_t)(p - w);
    bool call = *p == '(';
    for (const char *const *x = not_ops; call && *x; x++) call = !(strlen(*x) == k && !strncmp(w, *x, k));
    char word[128];
    snprintf(word, sizeof word, " %.*s,", (int)(k < 120 ? k : 120), w);
    if (call && !strstr(seen.data ? seen.data : "", word)) {
      sb_puts(&seen, word);
      sb_printf(out, "%s%.*s", n++ ? ", " : "", (int)k, w);
    }
    p--;
  }
  sb_free(&seen);
}

/* Where it fails, for the title ("FuseOps") and the text ("inside the pass FuseOps, run by
   relay.build"). */
static void where(const FuzzGroup *g, StrBuf *tag, StrBuf *text) {
  const char *step = g->step ? g->step : "";
  const char *stage = g->key;
  size_t stage_n = strcspn(g->key, ":");
  if (!strncmp(step, "build pass ", 11)) {
    sb_printf(tag, "%s", step + 11);
    sb_printf(text, "inside the optimization pass %s, run by relay.build (TVM's pass instruments)", step + 11);
  } else if (!strncmp(step, "pass ", 5)) {
    sb_printf(tag, "%s", step + 5);
    sb_printf(text, "inside the optimization pass %s, run on its own (tvm.transform.Sequential)", step + 5);
  } else if (!strncmp(step, "build after ", 12)) {
    sb_puts(tag, "Lowering");
    sb_printf(text, "in relay.build's lowering and code generation, after its last Relay pass (%s)", step + 12);
  } else if (*step) {
    sb_printf(tag, "%.*s", (int)stage_n, stage);
    sb_printf(text, "at the step `%s` (stage %.*s)", step, (int)stage_n, stage);
  } else {
    sb_printf(tag, "%.*s", (int)stage_n, stage);
    sb_printf(text, "in the stage %.*s", (int)stage_n, stage);
  }
}

/* The fenced block of report.md that follows `heading`, with its fence, or NULL. */
static char *report_block(const char *report, const char *heading) {
  const char *h = report ? strstr(report, heading) : NULL;
  const char *open = h ? strstr(h, "```") : NULL;
  const char *close = open ? strstr(open + 3, "\n```") : NULL;
  if (!close) return NULL;
  size_t n = (size_t)(close + 4 - open);
  char *out = xmalloc(n + 2);
  snprintf(out, n + 2, "%.*s\n", (int)n, open);
  return out;
}

/* Whether g's reduction was stopped (the campaign's end, a kill): no report, or rreduce said so in
   its log (its report's last run was then cut short too). */
static bool reduction_stopped(const Campaign *c, const FuzzGroup *g, const char *report) {
  if (!report) return true;
  char *path = campaign_path(c, "groups/%03u/rreduce.log", g->id);
  size_t len;
  char *log = file_read_text_if_there(path, &len);
  bool stopped = log && strstr(log, "rreduce: interrupted");
  free(log);
  free(path);
  return stopped;
}

bool fuzz_is_root_bug(const FuzzGroup *g) { return g->cls == FAIL_BUG && g->reduced_bytes >= 0 && !g->merged_into; }

bool fuzz_write_issue(const Campaign *c, const FuzzGroup *g) {
  char *reduced_path = campaign_path(c, "groups/%03u/reduced.relay", g->id);
  char *report_path = campaign_path(c, "groups/%03u/report.md", g->id);
  size_t len;
  char *program = file_read_text(reduced_path, &len);
  char *report = file_read_text_if_there(report_path, &len); /* none: a repro-less group */
  StrBuf md, ops, tag, place;
  sb_init(&md);
  sb_init(&ops);
  sb_init(&tag);
  sb_init(&place);
  operators(program ? program : "", &ops);
  where(g, &tag, &place);
  /* a title as a maintainer writes one: the component, the error, the operators */
  const char *msg = g->signature && *g->signature ? g->signature : g->key;
  const char *precondition = program ? fuzz_precondition(g->reduced_key ? g->reduced_key : g->key, program) : NULL;
  const char *title = precondition ? precondition : msg; /* the cause, rather than one of its wordings */
  sb_printf(&md, "# [Relay][%s] %.*s%s%s%s\n\n", tag.data ? tag.data : "", (int)(strlen(title) > 100 ? 97 : strlen(title)), title,
            strlen(title) > 100 ? "..." : "", ops.len ? " with " : "", ops.len ? ops.data : "");
  sb_printf(&md, "- **Fails on:** TVM v%s (the TVM this campaign ran)", op_tvm_name());
  if (g->tvm_verdicts) sb_printf(&md, "; %s", g->tvm_verdicts);
  sb_puts(&md, "\n");
  sb_printf(&md, "- **Where:** %s\n", place.data ? place.data : "");
  sb_printf(&md, "- **Class:** bug: %s\n", g->rule ? g->rule : "no rule names it a limitation or a rejected input");
  size_t absorbed = 0;
  for (size_t i = 0; i < c->groups.len; i++)
    if (c->groups.items[i].merged_into == g->id)
      sb_printf(&md, "%s%03u", absorbed++ ? ", " : "- **Groups merged into this root cause:** ", c->groups.items[i].id);
  if (absorbed)
    sb_puts(&md, " (each one program up to names, dtypes and shapes, or a sibling operator with the same message, or "
                 "the same precondition)\n");
  if (precondition) sb_printf(&md, "- **Unchecked precondition:** %s\n", precondition);
  sb_printf(&md, "- **Found:** program %llu of an rfuzz campaign (seed %llu), %.0f s in; reduced from %ld to %ld bytes\n",
            (unsigned long long)g->first_program, (unsigned long long)c->seed, g->first_seconds, g->first_bytes,
            g->reduced_bytes);
  sb_puts(&md, "\n## Error\n\n```\n");
  sb_puts(&md, msg);
  sb_printf(&md, "\n```\n\n## Reduced Relay program\n\n```\n%s%s```\n", program ? program : "(missing)\n",
            program && len && program[strlen(program) - 1] != '\n' ? "\n" : "");
  char *python = report_block(report, "### Standalone Python repro");
  if (python) sb_printf(&md, "\n## Standalone Python repro\n\n%s", python);
  else if (reduction_stopped(c, g, report)) /* before the last run, which writes the repro */
    sb_puts(&md, "\n## Standalone Python repro\n\nNone was written: the reduction stopped before its last run "
                 "(`rreduce.log` beside this file). relaykit's TVM test reproduces it from this directory, "
                 "with the reduced pipeline beside the program:\n\n    echo \"$PWD/reduced.relay\" | "
                 "interestingness/tvm-server --args-from args\n\n(`0 ...` is the bug, with its error.)\n");
  char *pipeline = report_block(report, "### Pipeline");
  if (pipeline) sb_printf(&md, "\n## Pipeline relaykit's TVM test ran\n\n%s", pipeline);
  if (report) sb_puts(&md, "\n`report.md` beside this file has how it was reduced and the environment.\n");
  char *path = campaign_path(c, "groups/%03u/issue.md", g->id);
  bool ok = file_replace(path, md.data, md.len);
  free(path);
  free(python);
  free(pipeline);
  free(program);
  free(report);
  free(reduced_path);
  free(report_path);
  sb_free(&md);
  sb_free(&ops);
  sb_free(&tag);
  sb_free(&place);
  return ok;
}
