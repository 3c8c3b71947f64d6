// readline outside the shell.
#include <readline/readline.h>
