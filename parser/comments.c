/*
 * Comment attachment.  TVM writes `/ * ty=T span=S * /` right after the node it describes
 * (a call, a constant, a parameter's type, a let binder, ...), so a comment is attached to the
 * node that ends last before it; among nodes ending at the same byte, to the outermost one
 * (the binder `%x: T`, not the type `T`; the call `f(x)`, not its last argument).  User comments
 * follow the same rule; comments before any node are the file's leading comments.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "lower.h"

typedef struct Ranked {
  AstNode *node;
  size_t order; /* creation order: parents are made after their children */
} Ranked;

static int by_end_then_outermost(const void *pa, const void *pb) {
  const Ranked *a = pa, *b = pb;
  if (a->node->span.end != b->node->span.end) return a->node->span.end < b->node->span.end ? -1 : 1;
  if (a->node->span.start != b->node->span.start) return a->node->span.start < b->node->span.start ? -1 : 1;
  return a->order > b->order ? -1 : a->order < b->order ? 1 : 0;
}

/* A `// text` line comment becomes `/ * text * /`: the printer joins lines, so a line comment
   would swallow what follows it.  Delimiters inside are broken up so nesting stays balanced. */
static const char *as_block_comment(Arena *arena, const char *src, uint32_t s, uint32_t e) {
  const char *t = src + s + 2;
  size_t n = e - s - 2;
  while (n > 0 && (t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t')) n--;
  char *out = arena_alloc(arena, 2 * n + 8), *p = out;
  memcpy(p, "/*", 2);
  p += 2;
  if (n == 0 || t[0] != ' ') *p++ = ' ';
  for (size_t i = 0; i < n; i++) {
    *p++ = t[i];
    if (i + 1 < n && ((t[i] == '*' && t[i + 1] == '/') || (t[i] == '/' && t[i + 1] == '*'))) *p++ = ' ';
  }
  memcpy(p, " */", 4);
  return out;
}

size_t block_comment_length(const char *src, size_t len) {
  size_t depth = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    if (src[i] == '/' && src[i + 1] == '*') {
      depth++;
      i++;
    } else if (src[i] == '*' && src[i + 1] == '/') {
      i++;
      if (--depth == 0) return i + 1;
    }
  }
  return 0;
}

/* A forward-only walk to the leaf that holds a byte.  Comments are looked for in the order of
   their text, so the cursor only ever moves on: to a later sibling, out of a node it has
   finished, or into the node that holds the byte; over the whole attachment it visits each node
   once at most.  (A lookup from the root for each comment went through every child of a wide
   node each time: 70,000 comments in one tuple took 20 s.) */
typedef struct Walk {
  TSTreeCursor cursor;
  bool done; /* past the root's end */
} Walk;

/* The leaf holding byte s, which is at or after every byte asked for before; false when s is in
   no leaf (white space between tokens) or past the tree. */
static bool leaf_at(Walk *w, uint32_t s, TSNode *leaf) {
  TSTreeCursor *c = &w->cursor;
  while (!w->done) {
    TSNode n = ts_tree_cursor_current_node(c);
    if (ts_node_end_byte(n) > s) {
      if (ts_node_start_byte(n) > s) return false;
      if (!ts_tree_cursor_goto_first_child(c)) {
        *leaf = n;
        return true;
      }
      continue;
    }
    /* n ends before s: on to the next node, never back into one that is finished */
    while (!ts_tree_cursor_goto_next_sibling(c))
      if (!ts_tree_cursor_goto_parent(c)) w->done = true;
  }
  return false;
}

/* The comments' symbols, looked up once. */
static TSSymbol block_symbol, line_symbol;

static void comment_symbols(void) {
  if (block_symbol) return;
  const TSLanguage *lang = tree_sitter_relay();
  block_symbol = ts_language_symbol_for_name(lang, "block_comment", 13, true);
  line_symbol = ts_language_symbol_for_name(lang, "line_comment", 12, true);
}

/* Where the next comment goes: the nodes sorted by end (outermost first among equal ends) are
   merged with the comments, both in text order, and a node's comments are consecutive, so the
   end of the list being filled is kept instead of walking the list for each comment. */
typedef struct Target {
  Ranked *ranked;
  size_t len;
  size_t next;  /* the first node that ends after the last comment seen */
  size_t first; /* the outermost node among those ending where ranked[next - 1] ends */
  AstComment **list, **tail;
} Target;

static void attach(Target *t, AstComment **leading, uint32_t s, AstComment *cm) {
  while (t->next < t->len && t->ranked[t->next].node->span.end <= s) {
    if (t->next == 0 || t->ranked[t->next].node->span.end != t->ranked[t->next - 1].node->span.end) t->first = t->next;
    t->next++;
  }
  AstComment **list = t->next == 0 ? leading : &t->ranked[t->first].node->comments;
  if (list != t->list) {
    t->list = t->tail = list;
    while (*t->tail) t->tail = &(*t->tail)->next;
  }
  *t->tail = cm;
  t->tail = &cm->next;
}

bool attach_comments(AstModule *m, TSNode root, const char *src, Diag *diag, AstNodeList *nodes,
                     ReadBudget *budget) {
  /* Comments are found from where their text can start (a '/' followed by '*' or '/') instead of
     by a walk of the whole tree: on 100 MB of code without comments the walk was a sixth of the
     time to read it. */
  comment_symbols();
  Target t = {0};
  Walk w = {ts_tree_cursor_new(root), false};
  bool ok = true;
  uint32_t len = ts_node_end_byte(root);
  for (uint32_t at = 0; at + 1 < len;) {
    const char *slash = memchr(src + at, '/', len - at - 1);
    if (!slash) break;
    uint32_t s = (uint32_t)(slash - src);
    at = s + 1;
    TSNode n;
    if ((slash[1] != '*' && slash[1] != '/') || !leaf_at(&w, s, &n)) continue;
    if (read_budget_over(budget, diag, s)) {
      ok = false;
      break;
    }
    uint32_t e = ts_node_end_byte(n);
    at = e; /* a '/' inside a string, a name or another comment is no comment */
    TSSymbol sym = ts_node_symbol(n);
    bool line = sym == line_symbol;
    if (ts_node_start_byte(n) != s || (!line && sym != block_symbol)) continue;
    if (!t.ranked) { /* sorted when the first comment needs them */
      t.len = nodes->len;
      t.ranked = xmalloc((t.len ? t.len : 1) * sizeof *t.ranked);
      for (size_t i = 0; i < t.len; i++) t.ranked[i] = (Ranked){nodes->items[i], i};
      qsort(t.ranked, t.len, sizeof *t.ranked, by_end_then_outermost);
    }
    if (!line && block_comment_length(src + s, e - s) != e - s) {
      diag_error(diag, s, "unterminated comment: '/*' is never closed (comments nest in Relay)");
      ok = false;
    }
    AstComment *cm = arena_alloc(&m->arena, sizeof *cm);
    cm->text = line ? as_block_comment(&m->arena, src, s, e) : arena_strndup(&m->arena, src + s, e - s);
    cm->next = NULL;
    attach(&t, &m->leading, s, cm);
  }
  ts_tree_cursor_delete(&w.cursor);
  free(t.ranked);
  return ok;
}
