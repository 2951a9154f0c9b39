build/rel/support/strbuf.o: support/strbuf.c support/strbuf.h \
 support/xalloc.h
support/strbuf.h:
support/xalloc.h:
