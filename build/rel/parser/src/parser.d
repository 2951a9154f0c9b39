build/rel/parser/src/parser.o: parser/src/parser.c \
 parser/src/tree_sitter/parser.h
parser/src/tree_sitter/parser.h:
