/* The bug-report fragment: everything a TVM developer needs in one paste. */
#include "report.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support/fileio.h"
#include "../support/strbuf.h"
#include "../support/version.h"
#include "../typegen/ops/ops.h"
#include "pipeline.h"

/* The Python the TVM tests use (interestingness/README.md): RELAYKIT_PYTHON, else python3. */
static const char *python(void) {
  const char *py = getenv("RELAYKIT_PYTHON");
  return py && *py && !strpbrk(py, "'\"\\$`") ? py : "python3";
}

/* The first line a shell command prints ("" when it fails or prints nothing); at most 20 s. */
static void first_line(const char *cmd, char *line, size_t cap) {
  FILE *p = popen(cmd, "r");
  line[0] = '\0';
  if (p && !fgets(line, (int)cap, p)) line[0] = '\0';
  if (p) pclose(p);
  line[strcspn(line, "\n")] = '\0';
}

/* TVM's version, commit and LLVM when that Python imports it (the test probably uses the same
   TVM), the OS and relaykit's version: what apache/tvm's issue template asks for. */
static void environment(StrBuf *b) {
  char cmd[512], line[512];
  snprintf(cmd, sizeof cmd,
           "timeout 20 '%s' -c 'import tvm; i = tvm.support.libinfo(); print(\"%%s (commit %%s, LLVM %%s)\" %% "
           "(tvm.__version__, i.get(\"GIT_COMMIT_HASH\", \"?\"), i.get(\"LLVM_VERSION\", \"?\")))' 2>/dev/null",
           python());
  first_line(cmd, line, sizeof line);
  sb_printf(b, "- TVM: %s\n", *line ? line : "unknown (TVM cannot be imported by the test's Python here)");
  first_line(". /etc/os-release 2>/dev/null && echo \"$PRETTY_NAME\"", line, sizeof line);
  char uname[256];
  first_line("uname -srm", uname, sizeof uname);
  sb_printf(b, "- OS: %s%s%s\n", *line ? line : "", *line && *uname ? ", " : "", uname);
  sb_printf(b, "- relaykit: " RELAYKIT_VERSION ", checking against TVM v%s's Relay registry (%s)\n", op_tvm_name(),
            op_tvm_how());
}

/* The fence language of a test script, from its #! line. */
static const char *script_language(const char *script) {
  if (strncmp(script, "#!", 2) != 0) return "sh";
  size_t n = strcspn(script, "\n");
  char first[256];
  snprintf(first, sizeof first, "%.*s", (int)(n < 255 ? n : 255), script);
  if (strstr(first, "python")) return "python";
  if (strstr(first, "bash")) return "bash";
  if (strstr(first, "perl")) return "perl";
  return "sh";
}

/* s in sh single quotes, absolute when it names a file that exists. */
static void sh_path(StrBuf *b, const char *s) {
  char abs[PATH_MAX];
  if (realpath(s, abs)) s = abs;
  sb_putc(b, '\'');
  for (; *s; s++) {
    if (*s == '\'') sb_puts(b, "'\\''");
    else sb_putc(b, *s);
  }
  sb_putc(b, '\'');
}

char *red_repro_recipe(const RedOptions *o, const char *program, const char *pipeline) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "d=$(mktemp -d); cp ");
  sh_path(&b, program);
  sb_printf(&b, " \"$d/%s\"; ", o->basename);
  if (pipeline) {
    sb_puts(&b, "cp ");
    sh_path(&b, pipeline);
    sb_printf(&b, " \"$d/%s.pipeline\"; ", o->basename);
  }
  if (o->oracle.test) {
    sb_puts(&b, "cd \"$d\"; ");
    sh_path(&b, o->oracle.test);
    sb_printf(&b, " '%s'", o->basename);
  } else {
    sb_printf(&b, "echo \"$d/%s\" | %s", o->basename, o->server_cmd);
  }
  return sb_take(&b);
}

/* A fenced block that survives backticks in the text. */
static void fenced(StrBuf *b, const char *lang, const char *text, size_t len) {
  const char *fence = strstr(text, "```") ? "~~~~" : "```";
  sb_printf(b, "%s%s\n%.*s%s%s\n", fence, lang, (int)len, text, len && text[len - 1] != '\n' ? "\n" : "", fence);
}

bool red_ask_fresh(const RedOptions *o, ServerPool *started, const char *program, const char *pipeline, RunResult *r,
                   char *err, size_t errlen) {
  Oracle fresh = o->oracle;
  if (o->server_cmd) fresh.pool = started ? started : server_pool_new(o->server_cmd, 1, &o->oracle.run);
  RunSide side = {{"pipeline"}, {pipeline}, pipeline ? 1 : 0}; /* the pipeline the bug needs */
  OracleJob job;
  bool ok = oracle_start(&fresh, o->basename, program, strlen(program), &side, &job, err, errlen);
  if (ok) oracle_finish(&fresh, &job, r);
  if (o->server_cmd && !started) server_pool_free(fresh.pool);
  return ok;
}

/* Runs the test once more on the program, with RELAYKIT_REPRO naming a file: relaykit's TVM tests
   (interestingness/) write their standalone Python repro there.  A server is started afresh for
   this, since the running ones did not get the variable.  The repro's text, or NULL. */
static bool rerun_for_repro(const RedOptions *o, const char *program, const char *pipeline, RunResult *r,
                            char **repro, char *err, size_t errlen) {
  char dir[] = "/tmp/rreduce-report.XXXXXX", file[64];
  *repro = NULL;
  if (!mkdtemp(dir)) return snprintf(err, errlen, "cannot make a temporary directory"), false;
  snprintf(file, sizeof file, "%s/repro.py", dir);
  setenv("RELAYKIT_REPRO", file, 1);
  bool ok = red_ask_fresh(o, NULL, program, pipeline, r, err, errlen);
  unsetenv("RELAYKIT_REPRO");
  size_t len;
  /* only relaykit's TVM tests write one: another test's silence is no error to print */
  *repro = file_read_text_if_there(file, &len);
  unlink(file);
  rmdir(dir);
  return ok;
}

/* The pipeline the bug needs, when rreduce reduced one with the program: what it is, how it was
   checked, and how to give it to the test. */
static void pipeline_section(StrBuf *b, const RedOptions *o, const RedStats *st) {
  RedPipeline before = {.opt_level = -1}, after = {.opt_level = -1};
  char err[256];
  if (!red_pipeline_parse(&after, st->pipeline_after, "", err, sizeof err)) return;
  red_pipeline_parse(&before, st->pipeline_before, "", err, sizeof err);
  char *a = red_pipeline_describe(&after), *bd = red_pipeline_describe(&before), *args = red_pipeline_script_args(&after);
  sb_printf(b, "\n### Pipeline\n\nThe bug needs %s (the test ran %s; rreduce reduced the pipeline with the "
               "program).", a, bd);
  if (st->pipeline_minimal)
    sb_puts(b, " Checked 1-minimal: removing any one of the remaining passes, or disabling any one that still "
               "runs, loses the bug.");
  sb_printf(b, "\n\nAs the test reads it beside the program (`%s.pipeline`, interestingness/PROTOCOL.md):\n\n",
            o->basename);
  fenced(b, "json", st->pipeline_after, strlen(st->pipeline_after));
  if (after.check && *args)
    sb_printf(b, "\nWith relaykit's TVM test: `interestingness/tvm-%s %s %s`\n", after.check, args, o->basename);
  free(a);
  free(bd);
  free(args);
  red_pipeline_free(&before);
  red_pipeline_free(&after);
}

bool red_write_report(const char *path, const char *program, const RedOptions *o, const char *match_text,
                      const RedStats *st, char *err, size_t errlen) {
  RunResult r;
  char *repro;
  if (!rerun_for_repro(o, program, st->pipeline_after, &r, &repro, err, errlen)) return false;
  StrBuf b = {NULL, 0, 0};
  sb_printf(&b, "### Reduced Relay program\n\n");
  sb_printf(&b, "`%s`: %zu bytes and %zu operator calls, reduced from %zu bytes and %zu operator calls by rreduce "
                "(%lu tests, %.1f s).\n\n",
            o->basename, st->bytes_after, st->calls_after, st->bytes_before, st->calls_before, st->tests_run, st->seconds);
  fenced(&b, "", program, strlen(program));
  if (st->pipeline_after) pipeline_section(&b, o, st);
  /* the reduced program: FILE, or OUT with -o, whose FILE is the unreduced input (issue 30) */
  const char *pipe_note = st->pipeline_after ? " with the pipeline above beside it" : "";
  char *recipe = red_repro_recipe(o, o->out_path, st->pipeline_after ? o->pipeline_out : NULL);
  sb_printf(&b, "\n### How to reproduce\n\nCopy the reduced program above (rreduce wrote it to `%s`) into a fresh "
                "directory under the name the test was given (`%s`)%s, then %s:\n\n    %s\n\n",
            o->out_path, o->basename, pipe_note,
            o->oracle.test ? "run the interestingness test there"
                           : "send its path to the oracle server (interestingness/PROTOCOL.md)",
            recipe);
  free(recipe);
  if (match_text) sb_printf(&b, "It counts as the bug when it exits 0 and its output matches `%s`.\n\n", match_text);
  size_t tl;
  char *script = o->oracle.test ? file_read(o->oracle.test, &tl) : NULL;
  if (script && tl < 8192 && !memchr(script, '\0', tl)) {
    sb_puts(&b, "The test:\n\n");
    fenced(&b, script_language(script), script, tl);
    sb_puts(&b, "\n");
  }
  free(script);
  if (!o->oracle.test) sb_printf(&b, "It answers `%d %s`.", r.status, r.output);
  else if (r.timed_out) sb_printf(&b, "On the reduced program it timed out after %.0f s.", o->oracle.run.timeout);
  else if (r.status < 0) sb_printf(&b, "On the reduced program it was killed by signal %d.", r.signal);
  else sb_printf(&b, "On the reduced program it exits %d.", r.status);
  sb_puts(&b, r.output_len ? " Its output:\n\n" : " It prints nothing.\n");
  if (r.output_len) {
    size_t cap = 16384, len = r.output_len > cap ? cap : r.output_len;
    fenced(&b, "", r.output, len);
    if (len < r.output_len) sb_printf(&b, "(%zu more bytes of output cut)\n", r.output_len - len);
  }
  if (repro) {
    sb_puts(&b, "\n### Standalone Python repro\n\nThe same check as plain TVM calls (written by relaykit's TVM test; "
                "run it with `python3 repro.py`):\n\n");
    fenced(&b, "python", repro, strlen(repro));
  }
  sb_printf(&b, "\n### Environment\n\n");
  environment(&b);
  if (o->command_line) {
    sb_puts(&b, "\nReduced with:\n\n");
    fenced(&b, "sh", o->command_line, strlen(o->command_line));
  }
  free(repro);
  run_result_free(&r);
  bool ok = file_replace(path, b.data, b.len);
  if (!ok) snprintf(err, errlen, "cannot write %s", path);
  free(b.data);
  return ok;
}
