#include "lifelog_xlsx.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xlsxwriter.h>

/* The libxlsxwriter functions used, resolved once with dlsym; each pointer has the type of the
 * function the header declares, so a call is checked against libxlsxwriter's own signature. */
static struct {
  int loaded;
  __typeof__(workbook_new_opt) *new_opt;
  __typeof__(workbook_add_worksheet) *add_worksheet;
  __typeof__(workbook_add_format) *add_format;
  __typeof__(workbook_close) *close;
  __typeof__(format_set_bold) *set_bold;
  __typeof__(format_set_italic) *set_italic;
  __typeof__(format_set_font_color) *set_font_color;
  __typeof__(format_set_num_format) *set_num_format;
  __typeof__(worksheet_write_string) *write_string;
  __typeof__(worksheet_write_number) *write_number;
  __typeof__(worksheet_set_column) *set_column;
  __typeof__(worksheet_freeze_panes) *freeze_panes;
  __typeof__(worksheet_autofilter) *autofilter;
  __typeof__(lxw_strerror) *strerror;
} lib;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

struct lifelog_xlsx {
  lxw_workbook *workbook;
  lxw_worksheet *sheet;
  lxw_format *styles[LIFELOG_XLSX_STYLE_COUNT];
  /* The last cell libxlsxwriter refused, kept for the message at close. */
  lxw_error refused;
  /* A string with characters XML cannot carry, rewritten. */
  char *scratch;
  size_t scratch_capacity;
};

#define RESOLVE(field, name)                                                                     \
  do {                                                                                           \
    *(void **)(&lib.field) = dlsym(library, #name);                                              \
    if (!lib.field) {                                                                            \
      snprintf(error, error_length, "libxlsxwriter lacks %s", #name);                            \
      pthread_mutex_unlock(&load_lock);                                                          \
      return -1;                                                                                 \
    }                                                                                            \
  } while (0)

static int load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (lib.loaded) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *library = dlopen("libxlsxwriter.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(error, error_length,
             "cannot load libxlsxwriter, which spreadsheets need; install Debian's libxlsxwriter4 package "
             "(%s)",
             dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
  RESOLVE(new_opt, workbook_new_opt);
  RESOLVE(add_worksheet, workbook_add_worksheet);
  RESOLVE(add_format, workbook_add_format);
  RESOLVE(close, workbook_close);
  RESOLVE(set_bold, format_set_bold);
  RESOLVE(set_italic, format_set_italic);
  RESOLVE(set_font_color, format_set_font_color);
  RESOLVE(set_num_format, format_set_num_format);
  RESOLVE(write_string, worksheet_write_string);
  RESOLVE(write_number, worksheet_write_number);
  RESOLVE(set_column, worksheet_set_column);
  RESOLVE(freeze_panes, worksheet_freeze_panes);
  RESOLVE(autofilter, worksheet_autofilter);
  RESOLVE(strerror, lxw_strerror);
  lib.loaded = 1;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

static void add_styles(lifelog_xlsx *book) {
  for (int index = 0; index < LIFELOG_XLSX_STYLE_COUNT; index++)
    book->styles[index] = index == LIFELOG_XLSX_PLAIN ? NULL : lib.add_format(book->workbook);
  lib.set_bold(book->styles[LIFELOG_XLSX_HEADER]);
  lib.set_num_format(book->styles[LIFELOG_XLSX_DATE_TIME], "yyyy-mm-dd hh:mm");
  lib.set_num_format(book->styles[LIFELOG_XLSX_DATE], "ddd yyyy-mm-dd");
  lib.set_num_format(book->styles[LIFELOG_XLSX_TIME], "hh:mm");
  lib.set_num_format(book->styles[LIFELOG_XLSX_HOURS], "[h]:mm");
  lib.set_num_format(book->styles[LIFELOG_XLSX_HOURS_SECONDS], "[h]:mm:ss");
  lib.set_num_format(book->styles[LIFELOG_XLSX_FLAGGED_HOURS], "[h]:mm");
  lib.set_bold(book->styles[LIFELOG_XLSX_FLAGGED_HOURS]);
  lib.set_font_color(book->styles[LIFELOG_XLSX_FLAGGED_HOURS], 0x9C0006);
  lib.set_italic(book->styles[LIFELOG_XLSX_MUTED]);
  lib.set_font_color(book->styles[LIFELOG_XLSX_MUTED], 0x808080);
}

lifelog_xlsx *lifelog_xlsx_open(const char *path, const char *folder, int streaming, char *error,
                                size_t error_length) {
  if (load(error, error_length) != 0) return NULL;
  lifelog_xlsx *book = calloc(1, sizeof *book);
  if (!book) {
    snprintf(error, error_length, "out of memory");
    return NULL;
  }
  lxw_workbook_options options = {.constant_memory = streaming ? LXW_TRUE : LXW_FALSE,
                                  .tmpdir = (char *)folder,
                                  .use_zip64 = LXW_TRUE};
  book->workbook = lib.new_opt(path, &options);
  if (!book->workbook) {
    snprintf(error, error_length, "libxlsxwriter could not start the workbook");
    free(book);
    return NULL;
  }
  add_styles(book);
  return book;
}

int lifelog_xlsx_add_sheet(lifelog_xlsx *book, const char *name, char *error, size_t error_length) {
  book->sheet = lib.add_worksheet(book->workbook, name);
  if (!book->sheet) {
    snprintf(error, error_length, "libxlsxwriter refused the sheet name '%s'", name);
    return -1;
  }
  return 0;
}

/* Whether UTF-8 `text` holds a character XML 1.0 cannot carry. */
static int needs_cleaning(const unsigned char *text, size_t length) {
  for (size_t index = 0; index < length; index++) {
    unsigned char byte = text[index];
    if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) return 1;
    if (byte == 0xEF && index + 2 < length && text[index + 1] == 0xBF &&
        (text[index + 2] == 0xBE || text[index + 2] == 0xBF))
      return 1;
  }
  return 0;
}

/* `text` as a NUL-terminated string in the book's scratch buffer, each character XML cannot carry
 * replaced by U+FFFD (EF BF BD). NULL when memory runs out. */
static const char *cleaned(lifelog_xlsx *book, const unsigned char *text, size_t length) {
  size_t needed = length * 3 + 1;
  if (needed > book->scratch_capacity) {
    char *grown = realloc(book->scratch, needed);
    if (!grown) return NULL;
    book->scratch = grown;
    book->scratch_capacity = needed;
  }
  size_t out = 0;
  for (size_t index = 0; index < length; index++) {
    unsigned char byte = text[index];
    int bad = byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D;
    int noncharacter = byte == 0xEF && index + 2 < length && text[index + 1] == 0xBF &&
                       (text[index + 2] == 0xBE || text[index + 2] == 0xBF);
    if (bad || noncharacter) {
      memcpy(book->scratch + out, "\xEF\xBF\xBD", 3);
      out += 3;
      if (noncharacter) index += 2;
    } else {
      book->scratch[out++] = (char)byte;
    }
  }
  book->scratch[out] = 0;
  return book->scratch;
}

int lifelog_xlsx_string(lifelog_xlsx *book, uint32_t row, uint16_t column, const char *text,
                        size_t length, lifelog_xlsx_style style) {
  const unsigned char *bytes = (const unsigned char *)text;
  const char *written = text;
  if (needs_cleaning(bytes, length) || memchr(text, 0, length)) {
    written = cleaned(book, bytes, length);
    if (!written) {
      book->refused = LXW_ERROR_MEMORY_MALLOC_FAILED;
      return -1;
    }
  }
  lxw_error result = lib.write_string(book->sheet, row, column, written, book->styles[style]);
  if (result != LXW_NO_ERROR) {
    book->refused = result;
    return -1;
  }
  return 0;
}

int lifelog_xlsx_number(lifelog_xlsx *book, uint32_t row, uint16_t column, double value,
                        lifelog_xlsx_style style) {
  lxw_error result = lib.write_number(book->sheet, row, column, value, book->styles[style]);
  if (result != LXW_NO_ERROR) {
    book->refused = result;
    return -1;
  }
  return 0;
}

void lifelog_xlsx_column_width(lifelog_xlsx *book, uint16_t column, double width) {
  lib.set_column(book->sheet, column, column, width, NULL);
}

void lifelog_xlsx_header_and_filter(lifelog_xlsx *book, uint32_t last_row, uint16_t last_column) {
  lib.freeze_panes(book->sheet, 1, 0);
  lib.autofilter(book->sheet, 0, 0, last_row, last_column);
}

/* libxlsxwriter prints its errors to standard error ("[ERROR][packager.c:1541]: Error in
 * closing member in the zipfile"); lifelog says what went wrong itself. While `close` runs,
 * standard error goes into a pipe (non-blocking: a longer complaint is cut, never waited on), and
 * the complaint's first line, without its "[ERROR][file:line]: " prefix, goes into `detail`. */
static lxw_error close_quietly(lxw_workbook *workbook, char *detail, size_t detail_length) {
  detail[0] = 0;
  int pipe_ends[2];
  int saved = dup(STDERR_FILENO);
  if (saved < 0 || pipe(pipe_ends) != 0) {
    if (saved >= 0) close(saved);
    return lib.close(workbook);
  }
  fcntl(pipe_ends[0], F_SETFL, O_NONBLOCK);
  fcntl(pipe_ends[1], F_SETFL, O_NONBLOCK);
  fflush(stderr);
  dup2(pipe_ends[1], STDERR_FILENO);
  close(pipe_ends[1]);
  lxw_error result = lib.close(workbook);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  char said[512];
  ssize_t length = read(pipe_ends[0], said, sizeof said - 1);
  close(pipe_ends[0]);
  if (length > 0) {
    said[length] = 0;
    char *line = said;
    char *end = strchr(line, '\n');
    if (end) *end = 0;
    char *prefix_end = strstr(line, "]: ");
    if (line[0] == '[' && prefix_end) line = prefix_end + 3;
    snprintf(detail, detail_length, "%s", line);
  }
  return result;
}

int lifelog_xlsx_close(lifelog_xlsx *book, char *error, size_t error_length) {
  lxw_error refused = book->refused;
  char detail[256];
  lxw_error result = close_quietly(book->workbook, detail, sizeof detail);
  free(book->scratch);
  free(book);
  if (refused != LXW_NO_ERROR) {
    snprintf(error, error_length, "libxlsxwriter refused a cell: %s", lib.strerror(refused));
    return -1;
  }
  if (result != LXW_NO_ERROR) {
    /* "Zip generic error ZIP_ERRNO while creating the xlsx file." without its full stop: the
     * message goes on after it. */
    char reason[256];
    snprintf(reason, sizeof reason, "%s", lib.strerror(result));
    size_t length = strlen(reason);
    if (length > 0 && reason[length - 1] == '.') reason[length - 1] = 0;
    if (detail[0])
      snprintf(error, error_length, "%s (%s)", reason, detail);
    else
      snprintf(error, error_length, "%s", reason);
    return -1;
  }
  return 0;
}
