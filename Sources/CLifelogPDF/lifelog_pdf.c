#include "lifelog_pdf.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C types, declared here instead of including cairo's and pango's headers (which need
 * glib's): every pointer is opaque, and only these calls are made, through dlsym. */
typedef void cairo_t;
typedef void cairo_surface_t;
typedef void PangoLayout;
typedef void PangoFontDescription;

enum { CAIRO_PDF_METADATA_TITLE = 0, CAIRO_PDF_METADATA_AUTHOR = 1, CAIRO_PDF_METADATA_CREATOR = 4,
       CAIRO_PDF_METADATA_CREATE_DATE = 5, CAIRO_PDF_METADATA_MOD_DATE = 6 };
enum { PANGO_SCALE = 1024, PANGO_ELLIPSIZE_NONE = 0, PANGO_ELLIPSIZE_END = 3, PANGO_WRAP_WORD_CHAR = 2 };

static struct {
  int loaded;
  cairo_surface_t *(*pdf_surface_create)(int (*)(void *, const unsigned char *, unsigned int), void *, double,
                                         double);
  void (*pdf_set_metadata)(cairo_surface_t *, int, const char *);
  int (*surface_status)(cairo_surface_t *);
  void (*surface_finish)(cairo_surface_t *);
  void (*surface_destroy)(cairo_surface_t *);
  cairo_t *(*create)(cairo_surface_t *);
  int (*status)(cairo_t *);
  const char *(*status_to_string)(int);
  void (*destroy)(cairo_t *);
  void (*set_source_rgb)(cairo_t *, double, double, double);
  void (*rectangle)(cairo_t *, double, double, double, double);
  void (*fill)(cairo_t *);
  void (*move_to)(cairo_t *, double, double);
  void (*line_to)(cairo_t *, double, double);
  void (*set_line_width)(cairo_t *, double);
  void (*set_dash)(cairo_t *, const double *, int, double);
  void (*stroke)(cairo_t *);
  void (*show_page)(cairo_t *);
  PangoLayout *(*create_layout)(cairo_t *);
  void (*show_layout)(cairo_t *, PangoLayout *);
  void (*layout_set_text)(PangoLayout *, const char *, int);
  void (*layout_set_font)(PangoLayout *, const PangoFontDescription *);
  void (*layout_set_width)(PangoLayout *, int);
  void (*layout_set_wrap)(PangoLayout *, int);
  void (*layout_set_ellipsize)(PangoLayout *, int);
  void (*layout_set_alignment)(PangoLayout *, int);
  void (*layout_get_size)(PangoLayout *, int *, int *);
  int (*layout_unknown_glyphs)(PangoLayout *);
  PangoFontDescription *(*font_from_string)(const char *);
  void (*font_free)(PangoFontDescription *);
  void (*object_unref)(void *);
} lib;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

enum { FONT_CACHE = 8 };

struct lifelog_pdf {
  cairo_surface_t *surface;
  cairo_t *cairo;
  PangoLayout *layout;
  /* The font descriptions made so far, by their description string. */
  char *font_names[FONT_CACHE];
  PangoFontDescription *fonts[FONT_CACHE];
  const char *current_font;
  /* The PDF's bytes as cairo writes them; `failed` when memory ran out. */
  unsigned char *bytes;
  size_t length, capacity;
  int failed;
};

/* cairo's write callback: appends to the PDF's bytes (0 is CAIRO_STATUS_SUCCESS, 11 WRITE_ERROR). */
static int append_bytes(void *closure, const unsigned char *data, unsigned int length) {
  lifelog_pdf *pdf = closure;
  if (pdf->failed) return 11;
  if (length > pdf->capacity - pdf->length) {
    size_t capacity = pdf->capacity ? pdf->capacity : 1 << 16;
    while (length > capacity - pdf->length) {
      if (capacity > ((size_t)1 << 30)) {
        pdf->failed = 1;
        return 11;
      }
      capacity *= 2;
    }
    unsigned char *grown = realloc(pdf->bytes, capacity);
    if (!grown) {
      pdf->failed = 1;
      return 11;
    }
    pdf->bytes = grown;
    pdf->capacity = capacity;
  }
  memcpy(pdf->bytes + pdf->length, data, length);
  pdf->length += length;
  return 0;
}

static void *open_library(const char *name, const char *package, char *error, size_t error_length) {
  void *library = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
  if (!library)
    snprintf(error, error_length,
             "cannot load %s, which PDF reports need; install Debian's %s package (%s)", name, package,
             dlerror());
  return library;
}

int lifelog_pdf_load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (lib.loaded) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *gobject = open_library("libgobject-2.0.so.0", "libglib2.0-0", error, error_length);
  void *cairo = gobject ? open_library("libcairo.so.2", "libcairo2", error, error_length) : NULL;
  void *pango = cairo ? open_library("libpango-1.0.so.0", "libpango-1.0-0", error, error_length) : NULL;
  void *pangocairo =
      pango ? open_library("libpangocairo-1.0.so.0", "libpangocairo-1.0-0", error, error_length) : NULL;
  if (!pangocairo) {
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
#define RESOLVE(library, field, name, package)                                               \
  *(void **)(&lib.field) = dlsym(library, name);                                             \
  if (!lib.field) {                                                                          \
    snprintf(error, error_length, "%s lacks %s; install a newer %s package", #library, name, package); \
    pthread_mutex_unlock(&load_lock);                                                        \
    return -1;                                                                               \
  }
  RESOLVE(cairo, pdf_surface_create, "cairo_pdf_surface_create_for_stream", "libcairo2")
  RESOLVE(cairo, pdf_set_metadata, "cairo_pdf_surface_set_metadata", "libcairo2 (1.16 or newer)")
  RESOLVE(cairo, surface_status, "cairo_surface_status", "libcairo2")
  RESOLVE(cairo, surface_finish, "cairo_surface_finish", "libcairo2")
  RESOLVE(cairo, surface_destroy, "cairo_surface_destroy", "libcairo2")
  RESOLVE(cairo, create, "cairo_create", "libcairo2")
  RESOLVE(cairo, status, "cairo_status", "libcairo2")
  RESOLVE(cairo, status_to_string, "cairo_status_to_string", "libcairo2")
  RESOLVE(cairo, destroy, "cairo_destroy", "libcairo2")
  RESOLVE(cairo, set_source_rgb, "cairo_set_source_rgb", "libcairo2")
  RESOLVE(cairo, rectangle, "cairo_rectangle", "libcairo2")
  RESOLVE(cairo, fill, "cairo_fill", "libcairo2")
  RESOLVE(cairo, move_to, "cairo_move_to", "libcairo2")
  RESOLVE(cairo, line_to, "cairo_line_to", "libcairo2")
  RESOLVE(cairo, set_line_width, "cairo_set_line_width", "libcairo2")
  RESOLVE(cairo, set_dash, "cairo_set_dash", "libcairo2")
  RESOLVE(cairo, stroke, "cairo_stroke", "libcairo2")
  RESOLVE(cairo, show_page, "cairo_show_page", "libcairo2")
  RESOLVE(pangocairo, create_layout, "pango_cairo_create_layout", "libpangocairo-1.0-0")
  RESOLVE(pangocairo, show_layout, "pango_cairo_show_layout", "libpangocairo-1.0-0")
  RESOLVE(pango, layout_set_text, "pango_layout_set_text", "libpango-1.0-0")
  RESOLVE(pango, layout_set_font, "pango_layout_set_font_description", "libpango-1.0-0")
  RESOLVE(pango, layout_set_width, "pango_layout_set_width", "libpango-1.0-0")
  RESOLVE(pango, layout_set_wrap, "pango_layout_set_wrap", "libpango-1.0-0")
  RESOLVE(pango, layout_set_ellipsize, "pango_layout_set_ellipsize", "libpango-1.0-0")
  RESOLVE(pango, layout_set_alignment, "pango_layout_set_alignment", "libpango-1.0-0")
  RESOLVE(pango, layout_get_size, "pango_layout_get_size", "libpango-1.0-0")
  RESOLVE(pango, layout_unknown_glyphs, "pango_layout_get_unknown_glyphs_count", "libpango-1.0-0")
  RESOLVE(pango, font_from_string, "pango_font_description_from_string", "libpango-1.0-0")
  RESOLVE(pango, font_free, "pango_font_description_free", "libpango-1.0-0")
  RESOLVE(gobject, object_unref, "g_object_unref", "libglib2.0-0")
#undef RESOLVE
  lib.loaded = 1;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

lifelog_pdf *lifelog_pdf_create(double width, double height, const char *date,
                                const char *title, const char *author, char *error, size_t error_length) {
  lifelog_pdf *pdf = calloc(1, sizeof *pdf);
  if (!pdf) {
    snprintf(error, error_length, "out of memory");
    return NULL;
  }
  pdf->surface = lib.pdf_surface_create(append_bytes, pdf, width, height);
  int status = lib.surface_status(pdf->surface);
  if (status != 0) {
    snprintf(error, error_length, "cannot start the PDF: %s", lib.status_to_string(status));
    lib.surface_destroy(pdf->surface);
    free(pdf->bytes);
    free(pdf);
    return NULL;
  }
  lib.pdf_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
  lib.pdf_set_metadata(pdf->surface, CAIRO_PDF_METADATA_MOD_DATE, date);
  lib.pdf_set_metadata(pdf->surface, CAIRO_PDF_METADATA_TITLE, title);
  if (author[0]) lib.pdf_set_metadata(pdf->surface, CAIRO_PDF_METADATA_AUTHOR, author);
  lib.pdf_set_metadata(pdf->surface, CAIRO_PDF_METADATA_CREATOR, "lifelog");
  pdf->cairo = lib.create(pdf->surface);
  pdf->layout = lib.create_layout(pdf->cairo);
  return pdf;
}

void lifelog_pdf_colour(lifelog_pdf *pdf, double red, double green, double blue) {
  lib.set_source_rgb(pdf->cairo, red, green, blue);
}

void lifelog_pdf_fill(lifelog_pdf *pdf, double x, double y, double width, double height) {
  lib.rectangle(pdf->cairo, x, y, width, height);
  lib.fill(pdf->cairo);
}

void lifelog_pdf_line(lifelog_pdf *pdf, double x1, double y1, double x2, double y2, double line_width,
                      int dashed) {
  static const double dash[] = {2, 2};
  lib.set_line_width(pdf->cairo, line_width);
  lib.set_dash(pdf->cairo, dash, dashed ? 2 : 0, 0);
  lib.move_to(pdf->cairo, x1, y1);
  lib.line_to(pdf->cairo, x2, y2);
  lib.stroke(pdf->cairo);
}

/* Sets the layout's font, making each description once. */
static void use_font(lifelog_pdf *pdf, const char *font) {
  if (pdf->current_font && strcmp(pdf->current_font, font) == 0) return;
  int slot = 0;
  for (; slot < FONT_CACHE && pdf->font_names[slot]; slot++)
    if (strcmp(pdf->font_names[slot], font) == 0) break;
  if (slot == FONT_CACHE) {
    /* More fonts than the cache holds: the last slot is reused. */
    slot = FONT_CACHE - 1;
    lib.font_free(pdf->fonts[slot]);
    free(pdf->font_names[slot]);
    pdf->font_names[slot] = NULL;
  }
  if (!pdf->font_names[slot]) {
    pdf->font_names[slot] = strdup(font);
    pdf->fonts[slot] = lib.font_from_string(font);
  }
  lib.layout_set_font(pdf->layout, pdf->fonts[slot]);
  pdf->current_font = pdf->font_names[slot];
}

static void lay_out(lifelog_pdf *pdf, const char *text, const char *font, double width, int align,
                    int one_line) {
  use_font(pdf, font);
  lib.layout_set_width(pdf->layout, width > 0 ? (int)(width * PANGO_SCALE) : -1);
  lib.layout_set_wrap(pdf->layout, PANGO_WRAP_WORD_CHAR);
  lib.layout_set_ellipsize(pdf->layout, one_line && width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  lib.layout_set_alignment(pdf->layout, align);
  lib.layout_set_text(pdf->layout, text, -1);
}

double lifelog_pdf_text(lifelog_pdf *pdf, const char *text, const char *font, double x, double y, double width,
                        int align, int one_line, int draw) {
  lay_out(pdf, text, font, width, align, one_line);
  int w = 0, h = 0;
  lib.layout_get_size(pdf->layout, &w, &h);
  if (draw) {
    lib.move_to(pdf->cairo, x, y);
    lib.show_layout(pdf->cairo, pdf->layout);
  }
  return (double)h / PANGO_SCALE;
}

double lifelog_pdf_text_width(lifelog_pdf *pdf, const char *text, const char *font) {
  lay_out(pdf, text, font, 0, 0, 1);
  int w = 0, h = 0;
  lib.layout_get_size(pdf->layout, &w, &h);
  return (double)w / PANGO_SCALE;
}

int lifelog_pdf_missing_glyphs(lifelog_pdf *pdf, const char *text, const char *font) {
  lay_out(pdf, text, font, 0, 0, 1);
  return lib.layout_unknown_glyphs(pdf->layout);
}

void lifelog_pdf_page(lifelog_pdf *pdf) { lib.show_page(pdf->cairo); }

int lifelog_pdf_finish(lifelog_pdf *pdf, unsigned char **bytes, size_t *length, char *error,
                       size_t error_length) {
  int status = lib.status(pdf->cairo);
  lib.object_unref(pdf->layout);
  lib.destroy(pdf->cairo);
  lib.surface_finish(pdf->surface);
  if (status == 0) status = lib.surface_status(pdf->surface);
  lib.surface_destroy(pdf->surface);
  for (int slot = 0; slot < FONT_CACHE && pdf->font_names[slot]; slot++) {
    lib.font_free(pdf->fonts[slot]);
    free(pdf->font_names[slot]);
  }
  *bytes = pdf->bytes;
  *length = pdf->length;
  free(pdf);
  if (status != 0) {
    snprintf(error, error_length, "cannot make the PDF: %s", lib.status_to_string(status));
    free(*bytes);
    *bytes = NULL;
    *length = 0;
    return -1;
  }
  return 0;
}

void lifelog_pdf_free_bytes(unsigned char *bytes) { free(bytes); }
