build/rel/parser/print.o: parser/print.c parser/../support/strbuf.h \
 parser/ast.h parser/../support/arena.h parser/../support/diag.h \
 parser/../support/strbuf.h
parser/../support/strbuf.h:
parser/ast.h:
parser/../support/arena.h:
parser/../support/diag.h:
parser/../support/strbuf.h:
