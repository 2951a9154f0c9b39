build/rel/parser/rfmt.o: parser/rfmt.c parser/../support/fileio.h \
 parser/ast.h parser/../support/arena.h parser/../support/diag.h \
 parser/../support/strbuf.h
parser/../support/fileio.h:
parser/ast.h:
parser/../support/arena.h:
parser/../support/diag.h:
parser/../support/strbuf.h:
