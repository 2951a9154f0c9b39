build/rel/support/diag.o: support/diag.c support/diag.h support/strbuf.h
support/diag.h:
support/strbuf.h:
