/* Whether a failure is a known bug: the bug's words (TVM's, as ../shared/realbugs/bugs.json gives
   them) found in the failure's text, its numbers aside.  A bug's words are one meeting of it:
   "the function is provided too many arguments expected 1, found 7" is the same check failing on
   a function of 2 parameters ("found 2"); read literally, only a program of HirGen's own arity
   would count, and the same root cause met again would be "unknown". */
#include <ctype.h>

#include "campaign.h"

/* words matches text at t: the same characters, every run of digits in words matched by a run of
   digits in text (of any length). */
static bool matches_at(const char *t, const char *w) {
  while (*w) {
    if (isdigit((unsigned char)*w)) {
      if (!isdigit((unsigned char)*t)) return false;
      while (isdigit((unsigned char)*w)) w++;
      while (isdigit((unsigned char)*t)) t++;
      continue;
    }
    if (*t != *w) return false;
    t++, w++;
  }
  return true;
}

bool fuzz_words_found(const char *text, const char *words) {
  if (!text || !words || !*words) return false;
  for (const char *t = text; *t; t++)
    if (matches_at(t, words)) return true;
  return false;
}
