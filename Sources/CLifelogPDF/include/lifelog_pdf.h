#ifndef LIFELOG_PDF_H
#define LIFELOG_PDF_H

#include <stddef.h>

/// The few cairo and pango calls the PDF report draws with. libcairo2, libpango-1.0-0,
/// libpangocairo-1.0-0 and libgobject-2.0-0 are loaded with dlopen the first time, so the lifelog
/// binary does not link them: only `lifelog report --format pdf` pays for loading them.
/// Lengths are in PostScript points (1/72 inch), y downwards from the top of the page.

typedef struct lifelog_pdf lifelog_pdf;

/// Loads the libraries; 0, or -1 with a message naming the Debian package to install in `error`.
int lifelog_pdf_load(char *error, size_t error_length);

/// Starts a PDF in memory, pages `width` × `height`, with `date` (ISO 8601) as its creation and
/// modification date so the same input gives the same bytes; NULL with a message in `error`.
/// Call only after a successful load.
lifelog_pdf *lifelog_pdf_create(double width, double height, const char *date,
                                const char *title, const char *author, char *error, size_t error_length);

/// The colour of what is drawn next (0 to 1 each).
void lifelog_pdf_colour(lifelog_pdf *pdf, double red, double green, double blue);

/// Fills a rectangle.
void lifelog_pdf_fill(lifelog_pdf *pdf, double x, double y, double width, double height);

/// Draws a line `line_width` wide, dashed when `dashed` is not 0.
void lifelog_pdf_line(lifelog_pdf *pdf, double x1, double y1, double x2, double y2, double line_width,
                      int dashed);

/// Draws `text` (UTF-8) in `font` (a pango description: "DejaVu Sans Bold 9") with its top left
/// at (x, y), wrapped at `width` (or on one line, cut with an ellipsis, when `one_line`), aligned
/// left (0), centred (1) or right (2). Returns its height; when `draw` is 0 only measures it.
double lifelog_pdf_text(lifelog_pdf *pdf, const char *text, const char *font, double x, double y, double width,
                        int align, int one_line, int draw);

/// The width `text` takes on one line in `font`.
double lifelog_pdf_text_width(lifelog_pdf *pdf, const char *text, const char *font);

/// How many characters of `text` in `font` have no glyph in the font fontconfig chose (0 when
/// a font with them is installed).
int lifelog_pdf_missing_glyphs(lifelog_pdf *pdf, const char *text, const char *font);

/// Ends the page and starts the next.
void lifelog_pdf_page(lifelog_pdf *pdf);

/// Finishes the PDF and frees everything but its bytes, handed over in `bytes` and `length` (free
/// them with lifelog_pdf_free_bytes); 0, or -1 with cairo's message in `error` (and no bytes).
int lifelog_pdf_finish(lifelog_pdf *pdf, unsigned char **bytes, size_t *length, char *error,
                       size_t error_length);

/// Frees what lifelog_pdf_finish handed over.
void lifelog_pdf_free_bytes(unsigned char *bytes);

#endif
