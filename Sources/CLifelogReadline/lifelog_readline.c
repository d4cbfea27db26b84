/*
 * GNU readline, loaded at run time (see include/lifelog_readline.h for why and how it is used).
 * <readline/readline.h> and <readline/history.h> are included for their types only; every
 * function and variable is looked up with dlsym, so nothing here links against the library.
 */
#define _GNU_SOURCE
#include "lifelog_readline.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

/* ---- The library's functions and variables, looked up once ---- */

static struct {
  void *handle;
  char *(*readline)(const char *);
  char **(*completion_matches)(const char *, rl_compentry_func_t *);
  void (*add_history)(const char *);
  void (*stifle_history)(int);
  rl_completion_func_t **attempted_completion_function;
  int *attempted_completion_over;
  char **line_buffer;
  const char **readline_name;
  const char **basic_word_break_characters;
  char **completer_word_break_characters;
  rl_hook_func_t **signal_event_hook;
  int (*replace_line)(const char *, int);
  int (*crlf)(void);
  int (*on_new_line)(void);
  void (*redisplay)(void);
} rl;

#define LOOKUP(field, name)                                                                      \
  do {                                                                                           \
    *(void **)(&rl.field) = dlsym(handle, name);                                                 \
    if (rl.field == NULL) {                                                                      \
      snprintf(error, error_size, "libreadline.so.8 lacks %s; install libreadline8", name);     \
      dlclose(handle);                                                                           \
      return -1;                                                                                 \
    }                                                                                            \
  } while (0)

int lr_load(char *error, size_t error_size) {
  if (rl.handle != NULL) return 0;
  void *handle = dlopen("libreadline.so.8", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(error, error_size,
             "cannot load libreadline (%s); install it with 'apt install libreadline8'", dlerror());
    return -1;
  }
  LOOKUP(readline, "readline");
  LOOKUP(completion_matches, "rl_completion_matches");
  LOOKUP(add_history, "add_history");
  LOOKUP(stifle_history, "stifle_history");
  LOOKUP(attempted_completion_function, "rl_attempted_completion_function");
  LOOKUP(attempted_completion_over, "rl_attempted_completion_over");
  LOOKUP(line_buffer, "rl_line_buffer");
  LOOKUP(readline_name, "rl_readline_name");
  LOOKUP(basic_word_break_characters, "rl_basic_word_break_characters");
  LOOKUP(completer_word_break_characters, "rl_completer_word_break_characters");
  LOOKUP(signal_event_hook, "rl_signal_event_hook");
  LOOKUP(replace_line, "rl_replace_line");
  LOOKUP(crlf, "rl_crlf");
  LOOKUP(on_new_line, "rl_on_new_line");
  LOOKUP(redisplay, "rl_redisplay");
  rl.handle = handle;
  return 0;
}

/* ---- Completion ---- */

static lr_completer completer;
static char **candidates;
static size_t candidate_count;
static size_t candidate_capacity;
static int wants_files;

void lr_add_candidate(const char *candidate) {
  if (candidate_count == candidate_capacity) {
    size_t capacity = candidate_capacity == 0 ? 32 : candidate_capacity * 2;
    char **grown = realloc(candidates, capacity * sizeof(char *));
    if (grown == NULL) return;
    candidates = grown;
    candidate_capacity = capacity;
  }
  char *copy = strdup(candidate);
  if (copy != NULL) candidates[candidate_count++] = copy;
}

void lr_complete_files(void) { wants_files = 1; }

static void clear_candidates(void) {
  for (size_t i = 0; i < candidate_count; i++) free(candidates[i]);
  candidate_count = 0;
  wants_files = 0;
}

/* Hands the collected candidates to rl_completion_matches one at a time (it frees them). */
static char *next_candidate(const char *text, int state) {
  static size_t index;
  (void)text;
  if (state == 0) index = 0;
  if (index >= candidate_count) return NULL;
  char *candidate = candidates[index];
  candidates[index++] = NULL;
  return candidate;
}

static char **attempt_completion(const char *text, int start, int end) {
  (void)end;
  clear_candidates();
  *rl.attempted_completion_over = 1;
  char *before = strndup(*rl.line_buffer, (size_t)start);
  if (before == NULL) return NULL;
  completer(before, text);
  free(before);
  if (wants_files) {
    *rl.attempted_completion_over = 0;
    clear_candidates();
    return NULL;
  }
  char **matches = candidate_count == 0 ? NULL : rl.completion_matches(text, next_candidate);
  candidate_count = 0;
  return matches;
}

/* readline keeps the pointer it is given for as long as the process runs (it reads it whenever
 * it parses ~/.inputrc conditionals), so the name is copied into storage that lives as long;
 * the caller's string may be a temporary (Swift passes a String as a pointer valid for the call). */
static char readline_name[64];

void lr_configure(const char *name, lr_completer callback) {
  snprintf(readline_name, sizeof readline_name, "%s", name);
  *rl.readline_name = readline_name;
  /* Words break at blanks and quotes only, so '--format=js' is one word to complete. */
  static char breaks[] = " \t\n\"'";
  *rl.basic_word_break_characters = breaks;
  *rl.completer_word_break_characters = breaks;
  completer = callback;
  *rl.attempted_completion_function = callback == NULL ? NULL : attempt_completion;
}

const char *lr_readline_name(void) { return rl.handle == NULL ? NULL : *rl.readline_name; }

/* ---- Lines and history ---- */

/* Ctrl-C at the prompt: readline puts the terminal back and calls our handler, which only notes
 * it; then readline calls the event hook, which drops the line and shows a fresh prompt, as bash
 * does. The handler is in place only while a line is read: Ctrl-C during a command ends lifelog. */
static volatile sig_atomic_t interrupted;

static void note_interrupt(int signal_number) {
  (void)signal_number;
  interrupted = 1;
}

static int clear_interrupted_line(void) {
  if (!interrupted) return 0;
  interrupted = 0;
  rl.replace_line("", 0);
  rl.crlf();
  rl.on_new_line();
  rl.redisplay();
  return 0;
}

char *lr_readline(const char *prompt) {
  struct sigaction action, previous;
  memset(&action, 0, sizeof action);
  action.sa_handler = note_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous);
  *rl.signal_event_hook = clear_interrupted_line;
  char *line = rl.readline(prompt);
  *rl.signal_event_hook = NULL;
  sigaction(SIGINT, &previous, NULL);
  return line;
}

void lr_free(char *line) { free(line); }

void lr_limit_history(int limit) { rl.stifle_history(limit); }

void lr_add_history(const char *line) { rl.add_history(line); }
