build/rel/parser/dump.o: parser/dump.c parser/../support/strbuf.h \
 parser/ast.h parser/../support/arena.h parser/../support/diag.h \
 parser/../support/strbuf.h
parser/../support/strbuf.h:
parser/ast.h:
parser/../support/arena.h:
parser/../support/diag.h:
parser/../support/strbuf.h:
