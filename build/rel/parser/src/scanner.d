build/rel/parser/src/scanner.o: parser/src/scanner.c \
 parser/src/tree_sitter/parser.h
parser/src/tree_sitter/parser.h:
