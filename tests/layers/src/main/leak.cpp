// Gets libpg_query through a parser header.
#include "parser/private.h"
