/*
 * libFuzzer harness for the inputs that once made tree-sitter 0.20.7 corrupt its heap (a node of
 * more than 65,535 children) and slipped past the check that guarded against them (issue 29):
 * the input bytes do not become the text, they choose it, piece by piece, from meta references,
 * strings, comments (nested, line, block, unterminated), brackets and a little code, each piece
 * once or repeated up to 85,400 times, so a run of 70,000 comments after `meta["][0]` is a few
 * bytes away.  Whatever the text: no crash and no sanitizer report; a rejected text has a
 * message; an accepted one makes the round trip of round_trip.h, and its printout holds as many
 * comments as the text (tree-sitter's count of comment tokens in both).
 */
#include "../../parser/lower.h"
#include "../../support/strbuf.h"
#include "round_trip.h"

#include <stdint.h>

static const char *const pieces[32] = {
    "/* c */",
    "// c\n",
    "/* a /* b */ c */",
    "/*",
    "*/",
    "\"",
    "\"s /* x */ // y \\\" z\"",
    "meta[\"][0]",
    "meta[relay.Constant][0]",
    "meta[",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "1f",
    "%x",
    "\n",
    " ",
    "#[metadata]\n",
    "def @main() {\n",
    "#[version = \"0.0.5\"]\n",
    "\\",
    "\r",
    "/",
    "*",
    "let %x = 1f;\n",
    "fn (%x) { %x }",
    "nn.relu(%x, s=\"a\")",
    "%0 = 1f;\n",
};

/* Texts stay under this size: a run of 70,000 comments is 560 KB. */
enum { MAX_TEXT = 1 << 20 };

/* Each byte names a piece (low 5 bits) and how often it comes (high 3 bits: once for 0-3, then
   2, 10 and 100 times; 7 takes the next byte too: 10 to 1,280 times, or, when its top bit is
   set, 60,000 to 85,400 times, around the 65,535 children a node had at most in tree-sitter
   0.20.7). */
static void build(const uint8_t *data, size_t size, StrBuf *out) {
  static const unsigned times[7] = {1, 1, 1, 1, 2, 10, 100};
  for (size_t i = 0; i < size; i++) {
    const char *piece = pieces[data[i] & 31];
    unsigned kind = data[i] >> 5, n = kind < 7 ? times[kind] : 10;
    if (kind == 7 && i + 1 < size) {
      unsigned b = data[++i];
      n = b & 0x80 ? 60000 + 200 * (b & 0x7F) : 10 * (1 + b);
    }
    size_t len = strlen(piece);
    for (unsigned k = 0; k < n && out->len + len < MAX_TEXT; k++)
      sb_puts(out, piece);
  }
}

/* The comment tokens in tree-sitter's tree of a text. */
static size_t count_comments(const char *text, size_t len) {
  const TSLanguage *lang = tree_sitter_relay();
  TSSymbol block = ts_language_symbol_for_name(lang, "block_comment", 13, true);
  TSSymbol line = ts_language_symbol_for_name(lang, "line_comment", 12, true);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, lang);
  TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  size_t n = 0;
  for (;;) {
    TSSymbol s = ts_node_symbol(ts_tree_cursor_current_node(&c));
    n += s == block || s == line;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&c)))
      if (!ts_tree_cursor_goto_parent(&c)) break;
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  StrBuf text;
  sb_init(&text);
  build(data, size, &text);
  const char *t = text.data ? text.data : "";
  AstModule *m = fuzz_parse(t, text.len);
  if (m) {
    AstModule *again;
    char *printed = fuzz_round_trip(m, &again);
    /* a #[metadata] section is read as text, not as tokens: count the comments before it */
    size_t before = count_comments(t, m->metadata ? m->metadata_at : text.len);
    size_t after = count_comments(printed, again->metadata ? again->metadata_at : strlen(printed));
    if (before != after) {
      fprintf(stderr, "%zu comments in the text, %zu in its printout:\n%.2000s\n", before, after, printed);
      abort();
    }
    free(printed);
    ast_free(again);
    ast_free(m);
  }
  sb_free(&text);
  return 0;
}
