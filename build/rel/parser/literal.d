build/rel/parser/literal.o: parser/literal.c parser/literal.h
parser/literal.h:
