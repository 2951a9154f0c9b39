build/rel/parser/comments.o: parser/comments.c parser/../support/xalloc.h \
 parser/lower.h parser/ast.h parser/../support/arena.h \
 parser/../support/diag.h parser/../support/strbuf.h
parser/../support/xalloc.h:
parser/lower.h:
parser/ast.h:
parser/../support/arena.h:
parser/../support/diag.h:
parser/../support/strbuf.h:
