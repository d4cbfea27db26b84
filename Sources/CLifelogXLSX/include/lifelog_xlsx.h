#ifndef LIFELOG_XLSX_H
#define LIFELOG_XLSX_H

#include <stddef.h>
#include <stdint.h>

/// Spreadsheets (.xlsx) for `export --format xlsx` and `report meals --format xlsx`, written by
/// libxlsxwriter (Debian's libxlsxwriter4), loaded with dlopen the first time, so the lifelog binary
/// does not link it and every other command never loads it.

typedef struct lifelog_xlsx lifelog_xlsx;

/// The cell styles a workbook has: plain text, the bold header, a date and time, a date, a time of
/// day, a duration in hours and minutes (past 24 hours too), the same with seconds, a flagged gap
/// (bold, dark red) and muted text (grey, italic).
typedef enum {
  LIFELOG_XLSX_PLAIN = 0,
  LIFELOG_XLSX_HEADER,
  LIFELOG_XLSX_DATE_TIME,
  LIFELOG_XLSX_DATE,
  LIFELOG_XLSX_TIME,
  LIFELOG_XLSX_HOURS,
  LIFELOG_XLSX_HOURS_SECONDS,
  LIFELOG_XLSX_FLAGGED_HOURS,
  LIFELOG_XLSX_MUTED,
  LIFELOG_XLSX_STYLE_COUNT
} lifelog_xlsx_style;

/// Starts a workbook written to `path` (a new file), with libxlsxwriter's temporary files in
/// `folder`. `streaming`: each row is written out when the next one starts (libxlsxwriter's
/// constant memory mode), so rows must come in order, sheet by sheet. Returns NULL with a sentence
/// in `error` (libxlsxwriter missing, or the file cannot be started).
lifelog_xlsx *lifelog_xlsx_open(const char *path, const char *folder, int streaming, char *error,
                                size_t error_length);

/// Adds a sheet named `name` (at most 31 characters, none of `[]:*?/\`) and makes it the one the
/// cells go to. Returns 0, or -1 with a sentence in `error`.
int lifelog_xlsx_add_sheet(lifelog_xlsx *book, const char *name, char *error, size_t error_length);

/// A string cell: UTF-8 `text` of `length` bytes followed by a NUL, never read as a formula. Control characters XML
/// cannot carry (all below U+0020 but tab, line feed and carriage return, a NUL too; U+FFFE,
/// U+FFFF) become U+FFFD. Returns 0, or -1 when libxlsxwriter refuses it (the book then fails at close).
int lifelog_xlsx_string(lifelog_xlsx *book, uint32_t row, uint16_t column, const char *text,
                        size_t length, lifelog_xlsx_style style);

/// A number cell (dates and times as Excel's serial days).
int lifelog_xlsx_number(lifelog_xlsx *book, uint32_t row, uint16_t column, double value,
                        lifelog_xlsx_style style);

/// Sets the width of `column` in the current sheet, in characters.
void lifelog_xlsx_column_width(lifelog_xlsx *book, uint16_t column, double width);

/// Freezes the current sheet's first row and puts an autofilter over rows 0 to `last_row` and
/// columns 0 to `last_column`.
void lifelog_xlsx_header_and_filter(lifelog_xlsx *book, uint32_t last_row, uint16_t last_column);

/// Writes the workbook to its file and frees it (also after a failure). Returns 0, or -1 with a
/// sentence in `error`.
int lifelog_xlsx_close(lifelog_xlsx *book, char *error, size_t error_length);

#endif
