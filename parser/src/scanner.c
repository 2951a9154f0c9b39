/*
 * External scanner for the Relay grammar: the two tokens a regular lexer cannot describe.
 *
 *  - block_comment: `/ * ... * /` comments NEST in Relay (§2.2).  An unterminated comment runs to
 *    the end of the input, as in TVM; the lowering reports it as an error.
 *  - metadata: `#[metadata]` and everything after it up to the end of the file (§2.3).
 */
#include <tree_sitter/parser.h>

enum TokenType { BLOCK_COMMENT, METADATA };

void *tree_sitter_relay_external_scanner_create(void) { return 0; }
void tree_sitter_relay_external_scanner_destroy(void *payload) { (void)payload; }
unsigned tree_sitter_relay_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}
void tree_sitter_relay_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static bool at_end(TSLexer *lexer) { return lexer->eof(lexer); }

/* After the opening slash-star: consume up to the matching close, counting nested opens. */
static bool scan_block_comment_rest(TSLexer *lexer) {
  unsigned depth = 1;
  while (!at_end(lexer)) {
    int32_t c = lexer->lookahead;
    lexer->advance(lexer, false);
    if (c == '/' && lexer->lookahead == '*') {
      lexer->advance(lexer, false);
      depth++;
    } else if (c == '*' && lexer->lookahead == '/') {
      lexer->advance(lexer, false);
      if (--depth == 0) break;
    }
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = BLOCK_COMMENT;
  return true;
}

static bool match_word(TSLexer *lexer, const char *word) {
  for (; *word; word++) {
    if (lexer->lookahead != *word) return false;
    lexer->advance(lexer, false);
  }
  return true;
}

static bool skip_blanks(TSLexer *lexer) {
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t') lexer->advance(lexer, false);
  return true;
}

bool tree_sitter_relay_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || lexer->lookahead == '\r' ||
         lexer->lookahead == '\n')
    lexer->advance(lexer, true);

  if (lexer->lookahead == '/' && valid_symbols[BLOCK_COMMENT]) {
    lexer->advance(lexer, false);
    if (lexer->lookahead != '*') return false;
    lexer->advance(lexer, false);
    return scan_block_comment_rest(lexer);
  }

  if (lexer->lookahead == '#' && valid_symbols[METADATA]) {
    lexer->advance(lexer, false);
    if (!match_word(lexer, "[") || !skip_blanks(lexer) || !match_word(lexer, "metadata") ||
        !skip_blanks(lexer) || !match_word(lexer, "]"))
      return false;
    while (!at_end(lexer)) lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    lexer->result_symbol = METADATA;
    return true;
  }
  return false;
}
