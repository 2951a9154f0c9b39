/* --match patterns: Perl/Python regular expressions (PCRE2), searched as Python's
   re.search(pattern, text, re.MULTILINE) searches, so rreduce, roracle and the TVM scripts agree
   on what a pattern means (\d, \s, non-greedy `.*?`; `^` and `$` at line ends; `.` stops at a
   newline).  The text is searched by length: a NUL byte in a test's output hides nothing after it. */
#ifndef RELAYKIT_PATTERN_H
#define RELAYKIT_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Pattern Pattern;

/* The compiled pattern, or NULL with "at offset N: reason" in err. */
Pattern *pattern_compile(const char *src, char *err, size_t errlen);
/* Whether the pattern occurs in text[0..len).  A search that exhausts PCRE2's backtracking limit
   (a pathological pattern on a huge output) counts as no match. */
bool pattern_search(const Pattern *p, const char *text, size_t len);
void pattern_free(Pattern *p);

#endif
