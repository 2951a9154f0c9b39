build/rel/parser/lower.o: parser/lower.c parser/lower.h parser/ast.h \
 parser/../support/arena.h parser/../support/diag.h \
 parser/../support/strbuf.h parser/../support/xalloc.h parser/literal.h
parser/lower.h:
parser/ast.h:
parser/../support/arena.h:
parser/../support/diag.h:
parser/../support/strbuf.h:
parser/../support/xalloc.h:
parser/literal.h:
