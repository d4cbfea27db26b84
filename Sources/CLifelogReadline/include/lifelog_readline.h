/*
 * Line editing for `lifelog shell`, on GNU readline.
 *
 * readline is loaded with dlopen() only when an interactive shell starts, so the lifelog binary
 * does not depend on it and every other command starts without loading it (a plain `lifelog add`
 * must stay within a few milliseconds). The functions here are plain so Swift can call them.
 * Completion calls back into Swift through one registered function, which answers by calling
 * lr_add_candidate() for each candidate (or lr_complete_files() to let readline complete file
 * names).
 */
#ifndef LIFELOG_READLINE_H
#define LIFELOG_READLINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called when Tab is pressed: `before` is the line up to the word being completed, `word` that
 * word as typed so far. Must be a plain (top-level) function. */
typedef void (*lr_completer)(const char *before, const char *word);

/* Loads libreadline. Returns 0, or -1 with a message in `error`. Safe to call again. */
int lr_load(char *error, size_t error_size);

/* Sets the application name (for ~/.inputrc conditionals) and the completion callback. */
void lr_configure(const char *name, lr_completer completer);

/* The name readline holds now (rl_readline_name), for tests; NULL before lr_load. */
const char *lr_readline_name(void);

/* Offers one candidate for the completion under way (already filtered by the word typed). */
void lr_add_candidate(const char *candidate);

/* Lets readline complete file names for the completion under way instead. */
void lr_complete_files(void);

/* Reads a line with the prompt; the caller frees it with lr_free. NULL at end of input (Ctrl-D). */
char *lr_readline(const char *prompt);
void lr_free(char *line);

/* Keeps at most `limit` lines of history in memory. */
void lr_limit_history(int limit);
/* Adds a line to the history in memory. */
void lr_add_history(const char *line);
/* No history file is read or written here: readline's functions take a path and would follow
 * a link planted at it; the caller reads and writes the file through its own descriptor. */

#ifdef __cplusplus
}
#endif

#endif
