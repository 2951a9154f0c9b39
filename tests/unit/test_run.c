/* Running interestingness tests: exit codes, the candidate's place, timeouts, process groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../interestingness/run.h"

static char script_dir[] = "/tmp/relaykit-test-run.XXXXXX";

static const char *script(const char *name, const char *body) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", script_dir, name);
  FILE *f = fopen(path, "w");
  fprintf(f, "#!/bin/sh\n%s\n", body);
  fclose(f);
  chmod(path, 0755);
  return path;
}

static RunResult run(const char *name, const char *body, double timeout) {
  RunOptions o;
  run_options_default(&o);
  o.timeout = timeout;
  o.grace = 0.2;
  RunResult r;
  char err[256];
  if (!run_candidate(script(name, body), "bug.relay", "hello\n", 6, &o, &r, err, sizeof err)) fail_msg("%s", err);
  return r;
}

/* Side files go beside the candidate before the test starts; the outcome the test leaves beside it
   comes back (PROTOCOL.md), and the test is told so by the environment. */
static void test_side_files_and_outcome(void **state) {
  (void)state;
  RunOptions o;
  run_options_default(&o);
  RunSide side = {{"pipeline", "args"}, {"{\"passes\": []}", "build\n"}, 2};
  char err[256];
  RunJob *j = run_start(script("s.sh", "test \"$RELAYKIT_ORACLE_OUTCOME\" = 1 || exit 4\n"
                                       "test \"$(cat \"$1.args\")\" = build || exit 5\n"
                                       "{ printf '{\"got\": '; cat \"$1.pipeline\"; printf '}'; } > \"$1.outcome\""),
                        "bug.relay", "x", 1, &side, &o, err, sizeof err);
  assert_non_null(j);
  RunResult r;
  run_finish(j, &r);
  assert_int_equal(r.status, 0);
  assert_non_null(r.outcome);
  assert_string_equal(r.outcome, "{\"got\": {\"passes\": []}}");
  run_result_free(&r);
  RunResult none = run("t.sh", "exit 0", 10); /* no outcome left: none read */
  assert_null(none.outcome);
  run_result_free(&none);
}

static void test_exit_status_and_output(void **state) {
  (void)state;
  RunResult r = run("a.sh", "echo out; echo err >&2; exit 3", 10);
  assert_int_equal(r.status, 3);
  assert_false(r.timed_out);
  assert_non_null(strstr(r.output, "out"));
  assert_non_null(strstr(r.output, "err"));
  run_result_free(&r);
}

/* The candidate sits under the input's basename in the working directory, and is $1. */
static void test_candidate_and_environment(void **state) {
  (void)state;
  RunResult r = run("b.sh",
                    "test \"$(basename \"$1\")\" = bug.relay || exit 5\n"
                    "test \"$(cat bug.relay)\" = hello || exit 6\n"
                    "case \"$TMPDIR\" in \"$PWD\"/*) ;; *) exit 7;; esac\n"
                    "echo \"$PWD\"",
                    10);
  assert_int_equal(r.status, 0);
  /* and the directory is gone afterwards */
  char dir[512];
  sscanf(r.output, "%511s", dir);
  assert_int_not_equal(access(dir, F_OK), 0);
  run_result_free(&r);
}

/* A hanging test that forks: killed at the timeout, with its children. */
static void test_timeout_kills_the_group(void **state) {
  (void)state;
  RunResult r = run("c.sh", "sleep 1000.777 & sleep 1000.777", 0.5);
  assert_true(r.timed_out);
  assert_int_equal(r.status, -1);
  assert_true(r.seconds < 5);
  usleep(200 * 1000);
  assert_int_not_equal(system("pgrep -f 'sleep 1000[.]777' > /dev/null"), 0);
  run_result_free(&r);
}

/* A test that exits but leaves a child behind: the child goes too. */
static void test_leftover_children_are_killed(void **state) {
  (void)state;
  RunResult r = run("d.sh", "sleep 1000.888 & exit 0", 10);
  assert_int_equal(r.status, 0);
  usleep(200 * 1000);
  assert_int_not_equal(system("pgrep -f 'sleep 1000[.]888' > /dev/null"), 0);
  run_result_free(&r);
}

/* Flooding output is capped, not stored whole. */
static void test_output_is_capped(void **state) {
  (void)state;
  RunOptions o;
  run_options_default(&o);
  o.output_cap = 1000;
  RunResult r;
  char err[256];
  assert_true(run_candidate(script("e.sh", "head -c 5000000 /dev/zero | tr '\\\\0' x; exit 0"), "bug.relay", "", 0, &o,
                       &r, err, sizeof err));
  assert_int_equal(r.status, 0);
  assert_int_equal(r.output_len, 1000);
  run_result_free(&r);
}

/* The verdict is the test's, not the parent's: a started job that ends at once is not a timeout
   however late the parent looks at it (rreduce -j builds the next candidate meanwhile), and one
   that runs past its timeout is one even when the parent is busy the whole time. */
static RunJob *start(const char *name, const char *body, double timeout) {
  RunOptions o;
  run_options_default(&o);
  o.timeout = timeout;
  o.grace = 0.2;
  char err[256];
  RunJob *j = run_start(script(name, body), "bug.relay", "", 0, NULL, &o, err, sizeof err);
  if (!j) fail_msg("%s", err);
  return j;
}

static void test_a_busy_parent_does_not_change_the_verdict(void **state) {
  (void)state;
  RunJob *quick = start("f.sh", "exit 0", 0.3), *slow = start("g.sh", "sleep 1000.999", 0.3);
  usleep(900 * 1000); /* the parent is busy for three timeouts */
  RunResult r;
  run_finish(quick, &r);
  assert_false(r.timed_out);
  assert_int_equal(r.status, 0);
  run_result_free(&r);
  run_finish(slow, &r);
  assert_true(r.timed_out);
  assert_int_equal(r.status, -1);
  run_result_free(&r);
  usleep(200 * 1000);
  assert_int_not_equal(system("pgrep -f 'sleep 1000[.]999' > /dev/null"), 0);
}

static void test_missing_test(void **state) {
  (void)state;
  RunOptions o;
  run_options_default(&o);
  RunResult r;
  char err[256];
  assert_false(run_candidate("/nonexistent/test.sh", "bug.relay", "", 0, &o, &r, err, sizeof err));
  assert_non_null(strstr(err, "/nonexistent/test.sh"));
}

static int setup(void **state) {
  (void)state;
  return mkdtemp(script_dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  run_remove_tree(script_dir);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exit_status_and_output),
      cmocka_unit_test(test_candidate_and_environment),
      cmocka_unit_test(test_timeout_kills_the_group),
      cmocka_unit_test(test_leftover_children_are_killed),
      cmocka_unit_test(test_output_is_capped),
      cmocka_unit_test(test_missing_test),
      cmocka_unit_test(test_side_files_and_outcome),
      cmocka_unit_test(test_a_busy_parent_does_not_change_the_verdict),
  };
  return cmocka_run_group_tests_name("run", tests, setup, teardown);
}
