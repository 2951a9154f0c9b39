build/rel/parser/parse.o: parser/parse.c parser/../support/xalloc.h \
 parser/lower.h parser/ast.h parser/../support/arena.h \
 parser/../support/diag.h parser/../support/strbuf.h
parser/../support/xalloc.h:
parser/lower.h:
parser/ast.h:
parser/../support/arena.h:
parser/../support/diag.h:
parser/../support/strbuf.h:
