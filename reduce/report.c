/* The bug-report fragment: everything a TVM developer needs in one paste. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "../support/fileio.h"
#include "../support/strbuf.h"
#include "../support/version.h"

/* TVM's version when Python can import it here (the test probably uses the same one). */
static void tvm_version(StrBuf *b) {
  FILE *p = popen("timeout 20 python3 -c 'import tvm; print(tvm.__version__)' 2>/dev/null", "r");
  char line[128] = "";
  bool got = p && fgets(line, sizeof line, p) != NULL;
  if (p) pclose(p);
  line[strcspn(line, "\n")] = '\0';
  sb_puts(b, got && *line ? line : "unknown (TVM cannot be imported by python3 here)");
}

/* A fenced block that survives backticks in the text. */
static void fenced(StrBuf *b, const char *lang, const char *text, size_t len) {
  const char *fence = strstr(text, "```") ? "~~~~" : "```";
  sb_printf(b, "%s%s\n%.*s%s%s\n", fence, lang, (int)len, text, len && text[len - 1] != '\n' ? "\n" : "", fence);
}

bool red_write_report(const char *path, const char *program, const RedOptions *o, const char *match_text,
                      const RedStats *st, char *err, size_t errlen) {
  RunResult r;
  if (!oracle_run(&o->oracle, o->basename, program, strlen(program), &r, err, errlen)) return false;
  StrBuf b = {NULL, 0, 0};
  sb_printf(&b, "### Reduced Relay program\n\n");
  sb_printf(&b, "`%s`: %zu bytes and %zu operator calls, reduced from %zu bytes and %zu operator calls by rreduce "
                "(%lu tests, %.1f s).\n\n",
            o->basename, st->bytes_after, st->calls_after, st->bytes_before, st->calls_before, st->tests_run, st->seconds);
  fenced(&b, "", program, strlen(program));
  if (o->oracle.test) {
    sb_printf(&b, "\n### How to reproduce\n\nThe interestingness test, run in a directory holding `%s`:\n\n", o->basename);
    sb_printf(&b, "    %s %s\n\n", o->oracle.test, o->basename);
  } else {
    sb_printf(&b, "\n### How to reproduce\n\nThe oracle server (interestingness/PROTOCOL.md), sent the path of `%s`:\n\n",
              o->basename);
    sb_printf(&b, "    echo \"$PWD/%s\" | %s\n\n", o->basename, o->server_cmd);
  }
  if (match_text) sb_printf(&b, "It counts as the bug when it exits 0 and its output matches `%s`.\n\n", match_text);
  size_t tl;
  char *script = o->oracle.test ? file_read(o->oracle.test, &tl) : NULL;
  if (script && tl < 8192 && !memchr(script, '\0', tl)) {
    sb_puts(&b, "The test:\n\n");
    fenced(&b, "sh", script, tl);
    sb_puts(&b, "\n");
  }
  free(script);
  if (!o->oracle.test) sb_printf(&b, "It answers `%d %s`. ", r.status, r.output);
  else if (r.timed_out) sb_printf(&b, "On the reduced program it timed out after %.0f s.", o->oracle.run.timeout);
  else if (r.status < 0) sb_printf(&b, "On the reduced program it was killed by signal %d.", r.signal);
  else sb_printf(&b, "On the reduced program it exits %d.", r.status);
  sb_puts(&b, r.output_len ? " Its output:\n\n" : " It prints nothing.\n");
  if (r.output_len) {
    size_t cap = 16384, len = r.output_len > cap ? cap : r.output_len;
    fenced(&b, "", r.output, len);
    if (len < r.output_len) sb_printf(&b, "(%zu more bytes of output cut)\n", r.output_len - len);
  }
  sb_puts(&b, "\n### Versions\n\n- rreduce: relaykit " RELAYKIT_VERSION "\n- TVM: ");
  tvm_version(&b);
  sb_puts(&b, "\n");
  run_result_free(&r);
  bool ok = file_replace(path, b.data, b.len);
  if (!ok) snprintf(err, errlen, "cannot write %s", path);
  free(b.data);
  return ok;
}
