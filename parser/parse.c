/*
 * ast_parse: checks the bytes, runs tree-sitter, turns its first ERROR or MISSING node into a
 * compiler-style message, then lowers the tree and attaches comments.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../support/memory.h"
#include "../support/xalloc.h"
#include "lower.h"

/* Relay text is ASCII outside comments and strings; UTF-8 is allowed there.  Anything that is
   not UTF-8 (binary garbage) is rejected before tree-sitter sees it, with its position. */
static bool check_bytes(const char *text, size_t len, Diag *diag) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < len;) {
    /* eight ASCII bytes without a NUL at a time: the common case, megabytes of it in #[metadata] */
    while (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if ((w & 0x8080808080808080ull) || ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)) break;
      i += 8;
    }
    if (i >= len) break;
    unsigned char c = s[i];
    if (c == 0) {
      diag_error(diag, i, "NUL byte in input (is this a binary file?)");
      return false;
    }
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool ok = n != 0 && i + n <= len && c != 0xC0 && c != 0xC1 && c <= 0xF4;
    for (size_t k = 1; ok && k < n; k++) ok = (s[i + k] & 0xC0) == 0x80;
    if (!ok) {
      diag_error(diag, i, "invalid UTF-8 byte 0x%02X (is this a binary file?)", c);
      return false;
    }
    i += n;
  }
  return true;
}

/* Text of a leaf for a message, shortened and made printable. */
static void describe_token(const char *src, TSNode n, char *out, size_t cap) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  size_t k = 0;
  for (uint32_t i = s; i < e && k + 4 < cap; i++) {
    unsigned char c = (unsigned char)src[i];
    if (c == '\n' || c == '\r') break;
    out[k++] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
  }
  if (e - s > k && k + 4 < cap) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k] = '\0';
}

static TSNode first_leaf(TSNode n) {
  while (ts_node_child_count(n) > 0) n = ts_node_child(n, 0);
  return n;
}

/* The leaf after `n` inside `parent` (or a null node). */
static TSNode next_leaf_in(TSNode n) {
  TSNode s = ts_node_next_sibling(n);
  return ts_node_is_null(s) ? s : first_leaf(s);
}

/* The length of the meta reference `meta[A][B]` at src[i] (one token of the grammar, whose
   brackets may hold a quote), or 0. */
static size_t meta_ref_length(const char *src, size_t len, size_t i) {
  char before = i > 0 ? src[i - 1] : ' ';
  if (len - i < 5 || memcmp(src + i, "meta[", 5) != 0 || before == '_' ||
      (before >= '0' && before <= '9') || ((before | 0x20) >= 'a' && (before | 0x20) <= 'z'))
    return 0;
  const char *end = src + len, *a = memchr(src + i + 5, ']', len - i - 5);
  if (!a || end - a < 3 || a[1] != '[') return 0;
  const char *b = memchr(a + 2, ']', (size_t)(end - a - 2));
  return b ? (size_t)(b + 1 - (src + i)) : 0;
}

/* On a syntax error, an unterminated comment or string explains it better than the token where
   tree-sitter gave up (often far away).  Scans like TVM's lexer; stops at #[metadata]. */
static bool report_unterminated(const char *src, size_t len, Diag *diag) {
  for (size_t i = 0; i < len; i++) {
    if (src[i] == '#' && i + 11 <= len && !memcmp(src + i, "#[metadata]", 11)) return false;
    size_t meta = src[i] == 'm' ? meta_ref_length(src, len, i) : 0;
    if (meta) {
      i += meta - 1;
    } else if (src[i] == '/' && i + 1 < len && src[i + 1] == '/') {
      while (i < len && src[i] != '\n') i++;
    } else if (src[i] == '/' && i + 1 < len && src[i + 1] == '*') {
      size_t n = block_comment_length(src + i, len - i);
      if (n == 0) {
        diag_error(diag, i, "unterminated comment: '/*' is never closed (comments nest in Relay)");
        return true;
      }
      i += n - 1;
    } else if (src[i] == '"') {
      size_t start = i++;
      while (i < len && src[i] != '"') i += src[i] == '\\' ? 2 : 1;
      if (i >= len) {
        diag_error(diag, start, "unterminated string: '\"' is never closed");
        return true;
      }
    }
  }
  return false;
}

/* Reports the first ERROR or MISSING node in document order. */
static void report_syntax_error(TSNode root, const char *src, size_t len, Diag *diag) {
  if (report_unterminated(src, len, diag)) return;
  TSTreeCursor c = ts_tree_cursor_new(root);
  TSNode bad = root;
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_is_missing(n) || !strcmp(ts_node_type(n), "ERROR")) {
      bad = n;
      break;
    }
    /* Descend only where the error is; otherwise move on. */
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&c)))
      if (!ts_tree_cursor_goto_parent(&c)) break;
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);

  char tok[80];
  if (ts_node_is_missing(bad)) {
    const char *what = ts_node_type(bad);
    /* A missing name or literal means an operand was expected; say so in the user's terms. */
    if (ts_node_is_named(bad) || !strcmp(what, "identifier"))
      diag_error(diag, ts_node_start_byte(bad), "syntax error: expected an expression or a name here");
    else
      diag_error(diag, ts_node_start_byte(bad), "syntax error: expected '%s'", what);
    return;
  }
  if (ts_node_start_byte(bad) >= len || ts_node_child_count(bad) == 0) {
    if (ts_node_start_byte(bad) >= len) {
      diag_error(diag, len, "syntax error: unexpected end of input");
      return;
    }
    describe_token(src, bad, tok, sizeof tok);
    diag_error(diag, ts_node_start_byte(bad), "syntax error: unexpected '%s'", tok);
    return;
  }
  /* An ERROR node spans the tokens tree-sitter skipped; name the first that cannot start or
     continue anything, with a hint for TVM's common traps. */
  TSNode lead = first_leaf(bad);
  describe_token(src, lead, tok, sizeof tok);
  if (!strcmp(tok, "let")) {
    TSNode nx = next_leaf_in(ts_node_child(bad, 0));
    if (!ts_node_is_null(nx) && strcmp(ts_node_type(nx), "local") != 0) {
      describe_token(src, nx, tok, sizeof tok);
      diag_error(diag, ts_node_start_byte(nx), "syntax error: 'let' binds a local variable like %%x, found '%s'", tok);
      return;
    }
  }
  if (!strncmp(tok, "#[", 2)) {
    diag_error(diag, ts_node_start_byte(lead), "unsupported attribute (Relay text has only #[version = \"0.0.5\"] and #[metadata])");
    return;
  }
  /* An error that swallows the whole file from its first token: not Relay at all. */
  TSNode parent = ts_node_parent(bad);
  bool whole_file = ts_node_end_byte(bad) >= len &&
                    (ts_node_is_null(parent) || ts_node_start_byte(bad) == ts_node_start_byte(parent));
  if (whole_file)
    diag_error(diag, ts_node_start_byte(lead), "syntax error: unexpected '%s' (this does not start a definition or an expression)", tok);
  else
    diag_error(diag, ts_node_start_byte(lead), "syntax error: unexpected '%s'", tok);
}

/* Blank lines at the end of the text (before any metadata): kept, see AstModule. */
static unsigned count_trailing_newlines(const char *text, size_t len) {
  unsigned n = 0;
  for (size_t i = len; i > 0; i--) {
    char c = text[i - 1];
    if (c == '\n') n++;
    else if (c != ' ' && c != '\t' && c != '\r') break;
  }
  return n >= 2 ? 2 : 1;
}

/* Set by a program that a signal stops (rreduce): a parse in progress ends at once, failing. */
static const size_t *cancel_flag;

void ast_parse_cancel_on(const size_t *flag) { cancel_flag = flag; }

static bool interrupted(void) { return cancel_flag && __atomic_load_n(cancel_flag, __ATOMIC_RELAXED); }

/* tree-sitter's allocations, counted while a text the memory estimate says will not fit is parsed
   under a cap (ast_parse): the estimate is for a program that parses, and a text with a syntax
   error only needs its tree (100 MB of garbage: 0.7 GB against an estimate of 32 GB), so its
   error is found and said; a parse that would pass the cap stops there instead, before the
   process runs out of memory. */
typedef struct ParseCap {
  bool on;
  long long live, cap; /* bytes; live counts from the cap's start, so a block older than it may
                          take it below zero: the cap is then a little looser, never tighter */
  size_t stop;         /* tree-sitter's cancellation flag while capped: over the cap, or a signal */
} ParseCap;

static ParseCap capped;

static void counted(void *p, long long sign) {
  if (!capped.on || !p) return;
  capped.live += sign * (long long)malloc_usable_size(p);
  if (capped.live > capped.cap || interrupted()) capped.stop = 1;
}
static void *counted_malloc(size_t n) {
  void *p = xmalloc(n);
  counted(p, 1);
  return p;
}
static void *counted_calloc(size_t k, size_t n) {
  void *p = xcalloc(k, n);
  counted(p, 1);
  return p;
}
static void *counted_realloc(void *old, size_t n) {
  counted(old, -1);
  void *p = xrealloc(old, n);
  counted(p, 1);
  return p;
}
static void counted_free(void *p) {
  counted(p, -1);
  free(p);
}

static bool cancelled(void) { return capped.stop || interrupted(); }

/* The flag a parse watches: the cap's while capped (which a signal sets too), else the signal's. */
static const size_t *watched_flag(void) { return capped.on ? &capped.stop : cancel_flag; }

/* Where tree-sitter's error recovery begins: its parse log gives the position of each step, and
   recovery starts with "skip_token" or "recover..."; the parse is cancelled right there. */
typedef struct FirstError {
  size_t cancel; /* tree-sitter's cancellation flag */
  bool seen;
  uint32_t row, col;
} FirstError;

static void watch_for_error(void *payload, TSLogType type, const char *msg) {
  FirstError *f = payload;
  unsigned row, col;
  if (cancelled()) f->cancel = 1;
  if (type != TSLogTypeParse || f->seen) return;
  if (sscanf(msg, "process version:%*d, version_count:%*u, state:%*d, row:%u, col:%u", &row, &col) == 2) {
    f->row = row;
    f->col = col;
  } else if (!strncmp(msg, "skip_token", 10) || !strncmp(msg, "recover", 7)) {
    f->seen = true;
    f->cancel = 1;
  }
}

/* Byte offset of a 0-based row and byte column. */
static size_t offset_of(const char *text, size_t len, uint32_t row, uint32_t col) {
  size_t at = 0;
  for (uint32_t r = 0; r < row && at < len; r++) {
    const char *nl = memchr(text + at, '\n', len - at);
    at = nl ? (size_t)(nl - text) + 1 : len;
  }
  return at + col < len ? at + col : len;
}

/* Reading gets a time budget: 10 s plus 1 s per MB of text, of the processor's time, so that
   a busy machine does not make it run out (120 MB of code, bench/chain.sh 3500000, read in 81 s
   under a load of 8 on two cores; AddressSanitizer makes reading 2 to 3 times slower).  It covers
   every step, tree-sitter's parse, the lowering and the comments, which each stop past it: once
   it covered the parse alone, and 70,000 comments took 20 s to attach.  Tree-sitter's parse also
   has a time of its own, 5 s plus 0.5 s per MB on the clock.  Its error recovery can take minutes
   on megabytes of garbage (10 s on 1 MB of random brackets) where a valid file of that size
   parses in a fraction of a second, so a parse past its time is not refused: the text is parsed
   again only up to where recovery first begins, and a little beyond, which is where the first
   error is, so the message is the one a quick parse would have given.  A valid file whose parse
   overruns on a slow machine is parsed twice, no more: the second parse meets no recovery and
   returns the tree, and the steps after it get a budget of their own. */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static ReadBudget read_budget(size_t len) {
  double seconds = 10 + (double)len / 1e6;
  return (ReadBudget){.deadline = cpu_seconds() + seconds, .seconds = seconds, .len = len};
}

bool read_budget_over(ReadBudget *b, Diag *diag, size_t at) {
  if (b->over) return true;
  if (++b->ticks < 4096) return false;
  b->ticks = 0;
  if (cpu_seconds() < b->deadline) return false;
  b->over = true;
  diag_error(diag, at,
             "reading stopped here: it takes longer than %.1f s, the time budget for %.1f MB of text (a valid "
             "program of that size reads in a fraction of it)",
             b->seconds, (double)b->len / (1024.0 * 1024.0));
  return true;
}

static TSTree *parse_budgeted(TSParser *parser, const char *text, size_t len, ReadBudget *budget) {
  ts_parser_set_timeout_micros(parser, 5000000 + (uint64_t)len / 2);
  ts_parser_set_cancellation_flag(parser, watched_flag());
  TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
  ts_parser_set_cancellation_flag(parser, NULL);
  ts_parser_set_timeout_micros(parser, 0);
  if (tree || interrupted()) return tree;
  /* Timed out (error recovery, slow on garbage), or past the memory cap (error recovery keeps
     what it skips, 70 bytes a token): the parse to the first error holds neither. A text that
     parses passes the cap again and comes back with none. */
  ts_parser_reset(parser);
  capped.stop = 0;
  FirstError f = {0};
  ts_parser_set_cancellation_flag(parser, &f.cancel);
  ts_parser_set_logger(parser, (TSLogger){&f, watch_for_error});
  tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
  ts_parser_set_logger(parser, (TSLogger){NULL, NULL});
  ts_parser_set_cancellation_flag(parser, NULL);
  if (tree || cancelled()) { /* no recovery after all (a machine much slower than the budget assumes) */
    *budget = read_budget(budget->len);
    return tree;
  }
  ts_parser_reset(parser);
  size_t cut = offset_of(text, len, f.row, f.col) + 1024;
  ts_parser_set_cancellation_flag(parser, watched_flag());
  tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)(cut < len ? cut : len));
  ts_parser_set_cancellation_flag(parser, NULL);
  return tree;
}

/* What a tool needs in memory beyond what it holds already, measured as the smallest `ulimit -v`
   under which it still succeeds (bench/memory.sh), less its start: per token of code (tree-sitter's
   tree and the AST, mostly), per byte of code (the text, names and comments copied, the printout)
   and per byte of the #[metadata] section (read as text; rcheck parses it as JSON).  A token costs
   280 to 450 bytes to read: least in a chain of bindings, most in one tuple of a million elements
   (one node with a million children); so the estimate is an upper bound for the worst of them,
   about 1.6 times what a chain takes.  Bytes per token are what the old estimate missed: 100
   bytes per byte of text was too little for a 2.7 MB chain (it takes 274 MB to check, and 100,000
   bindings are 850,000 tokens) and 30 times too much for a 10 MB comment (33 MB).  Measured again
   on 2026-11-27 (ulimit -v bisected, a build without the estimate): the tuple of 500,000 elements
   (1,000,000 tokens) takes rcheck 465 MB and rmutate 594 MB, which 480 and 560 bytes a token let
   through to run out of memory; the chain takes rcheck 274 MB, rmutate 396 MB, rreduce 282 MB
   (and 831 MB for 300,000 bindings).  rreduce on the large tuple was not measured (its always-
   interesting reduction of a 100,000-element tuple runs past ten minutes), so its cost stays. */
typedef struct MemoryCost {
  const char *doing;     /* for the message */
  double per_token, per_byte, per_meta_byte;
} MemoryCost;

static const MemoryCost memory_costs[] = {
    [AST_TOOL_READ] = {"read", 480, 5, 2},
    [AST_TOOL_CHECK] = {"check", 500, 3, 8},
    [AST_TOOL_REDUCE] = {"reduce", 760, 7, 8},
    [AST_TOOL_MUTATE] = {"mutate", 600, 7, 8},
};

static AstTool reading_for = AST_TOOL_READ;

void ast_parse_for(AstTool tool) { reading_for = tool; }

/* Below this the estimate is not made (a text this small fits anywhere a tool starts). 1 MB was
   too much: 0.98 MB of one tuple is 400,000 tokens, and rreduce ran out of memory on it under
   ulimit -v 250 MB instead of refusing it. */
enum { BUDGET_CHECK_FROM = 64 << 10 };

/* A character of a word: the grammar's identifier holds '/' too. */
static bool word_char(unsigned char c) {
  return c == '_' || c == '/' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* The tokens of the code, close to the grammar's: a word (a name, a number, %x, @f), a meta
   reference (whose quote starts no string), a string, a comment or one punctuation mark each.
   Only an estimate rests on it: a text it counts wrong is still parsed by the grammar alone. */
static size_t count_tokens(const char *text, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      i++;
      continue;
    }
    n++;
    size_t meta = c == 'm' ? meta_ref_length(text, len, i) : 0;
    if (meta) {
      i += meta;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
      size_t k = block_comment_length(text + i, len - i);
      i += k ? k : len - i;
    } else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
      const char *nl = memchr(text + i, '\n', len - i);
      i = nl ? (size_t)(nl - text) : len;
    } else if (c == '"') {
      for (i++; i < len && text[i] != '"'; i += text[i] == '\\' ? 2 : 1) {}
      i++;
    } else if (word_char(c) || ((c == '%' || c == '@') && i + 1 < len && word_char((unsigned char)text[i + 1]))) {
      for (i++; i < len && word_char((unsigned char)text[i]); i++) {}
    } else {
      i++;
    }
  }
  return n;
}

/* What reading the text is estimated to need, against what this process may still take. */
typedef struct MemoryNeed {
  double need;
  size_t avail, tokens;
} MemoryNeed;

static bool fits(const MemoryNeed *n) { return n->avail == SIZE_MAX || n->need <= (double)n->avail; }

/* `code` is the length before #[metadata]. */
static MemoryNeed memory_need(const char *text, size_t len, size_t code) {
  MemoryNeed n = {0, SIZE_MAX, 0};
  if (len < BUDGET_CHECK_FROM) return n;
  n.avail = mem_available();
  if (n.avail == SIZE_MAX) return n;
  const MemoryCost *c = &memory_costs[reading_for];
  n.tokens = count_tokens(text, code);
  n.need = (double)n.tokens * c->per_token + (double)code * c->per_byte + (double)(len - code) * c->per_meta_byte;
  return n;
}

/* An input that cannot fit is refused, with the limit stated, rather than ending in the middle of
   its reading (or in the OOM killer's hands). */
static void refuse_for_memory(const MemoryNeed *n, size_t len, Diag *diag) {
  const MemoryCost *c = &memory_costs[reading_for];
  const double mb = 1024.0 * 1024.0;
  diag_error(diag, 0,
             "%.1f MB of text needs about %.0f MB of memory to %s (%zu tokens, about %.0f bytes each, and %.0f bytes "
             "per byte), but only %.0f MB are available here (free memory and swap, ulimit -v / -d): the largest "
             "input that fits is about %.1f MB of text like this",
             (double)len / mb, n->need / mb, c->doing, n->tokens, c->per_token, c->per_byte, (double)n->avail / mb,
             (double)len * (double)n->avail / n->need / mb);
}

/* The #[metadata] section is megabytes of JSON (weights in base64) that the grammar takes as one
   token running to the end of the file, which tree-sitter's lexer would step through byte by
   byte.  So the parse stops right after the first `#[metadata]` that starts a line, and the
   section's text is taken from the input (lower.c).  Returns the length to parse. */
static size_t before_weights(const char *text, size_t len) {
  static const char header[] = "#[metadata]";
  const size_t n = sizeof header - 1;
  for (const char *p = text; (p = memchr(p, '#', len - (size_t)(p - text))) != NULL; p++)
    if ((p == text || p[-1] == '\n') && (size_t)(text + len - p) >= n && !memcmp(p, header, n))
      return (size_t)(p - text) + n;
  return len;
}

/* Whether a parse of text[0, cut) took the header at cut as the metadata section: it could be
   inside a comment or a string, and then the whole text is parsed. */
static bool took_metadata_at(TSNode root, size_t cut) {
  if (ts_node_has_error(root)) return false;
  uint32_t n = ts_node_child_count(root);
  if (n == 0) return false;
  TSNode last = ts_node_child(root, n - 1);
  return !strcmp(ts_node_type(last), "metadata") && ts_node_end_byte(last) == cut;
}

AstModule *ast_parse(const char *text, size_t len, Diag *diag) {
  if (len > UINT32_MAX - 1) {
    diag_error(diag, 0, "input too large (%zu bytes; the limit is 4 GiB)", len);
    return NULL;
  }
  size_t cut = before_weights(text, len);
  MemoryNeed need = memory_need(text, len, cut);
  /* tree-sitter's own allocation failure prints a bare line and exits 1: ours names the tool */
  ts_set_allocator(counted_malloc, counted_calloc, counted_realloc, counted_free);
  ReadBudget budget = read_budget(len);
  if (!check_bytes(text, len, diag)) return NULL;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_relay());
  if (!fits(&need)) /* half of what is left, for the tree alone: the tool's own needs come after it */
    capped = (ParseCap){.on = true, .cap = (long long)(need.avail / 2)};
  TSTree *tree = parse_budgeted(parser, text, cut, &budget);
  if (tree && cut < len && !took_metadata_at(ts_tree_root_node(tree), cut)) {
    ts_tree_delete(tree);
    ts_parser_reset(parser);
    tree = parse_budgeted(parser, text, len, &budget);
  }
  bool over_cap = capped.on && capped.stop && !interrupted();
  capped = (ParseCap){0};
  /* a text the estimate says will not fit is read only when it turns out not to parse */
  if (over_cap || (!fits(&need) && tree && !ts_node_has_error(ts_tree_root_node(tree)))) {
    refuse_for_memory(&need, len, diag);
    if (tree) ts_tree_delete(tree);
    ts_parser_delete(parser);
    return NULL;
  }
  if (!tree) { /* only a cancelled parse gives none */
    diag_error(diag, 0, "interrupted while parsing");
    ts_parser_delete(parser);
    return NULL;
  }
  TSNode root = ts_tree_root_node(tree);
  AstModule *m = NULL;
  if (ts_node_has_error(root)) {
    report_syntax_error(root, text, len, diag);
  } else {
    m = xcalloc(1, sizeof *m);
    arena_init(&m->arena);
    AstNodeList nodes = {NULL, 0, 0};
    bool ok = lower_module(m, root, text, len, diag, &nodes, &budget);
    ok = attach_comments(m, root, text, diag, &nodes, &budget) && ok;
    free(nodes.items);
    if (!m->metadata) m->trailing_newlines = count_trailing_newlines(text, len);
    if (!ok) {
      ast_free(m);
      m = NULL;
    }
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return m;
}

void ast_free(AstModule *m) {
  if (!m) return;
  arena_free(&m->arena);
  free(m);
}
