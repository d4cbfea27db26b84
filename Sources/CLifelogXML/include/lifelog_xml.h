#ifndef LIFELOG_XML_H
#define LIFELOG_XML_H

#include <stddef.h>

/// libxml2's streaming reader (xmlReaderForIO, xmlTextReaderRead...), loaded with dlopen the first
/// time, so only `lifelog import --from apple-health` loads libxml2 (Debian's libxml2 package).
/// The prototypes are declared here, not taken from libxml2's headers: the build needs only the
/// runtime library, and only when the import runs.

/// Fills `buffer` with up to `length` bytes of the document; returns how many (0 at the end), or
/// -1 when the input cannot be read.
typedef int (*lifelog_xml_read_fn)(void *context, char *buffer, int length);

typedef struct lifelog_xml_reader lifelog_xml_reader;

/// Loads libxml2; 0, or -1 with a message in `error`.
int lifelog_xml_load(char *error, size_t error_length);

/// A reader of the document `read` returns; never fetches anything from the network, never
/// substitutes entities into text, and keeps libxml2's limits for huge documents. NULL when out of memory. Call only after a successful load.
lifelog_xml_reader *lifelog_xml_open(lifelog_xml_read_fn read, void *context);

/// Moves to the next element: 1 at an element's start, 2 at its end (also right after the start
/// of an empty element), 0 at the end of the document, -1 on an error (see lifelog_xml_error),
/// -2 when the document type declares an entity (lifelog_xml_error then holds its name): the
/// document is refused before any element is read, as expanding a declared entity into every
/// attribute that names it costs time out of all proportion to the input.
int lifelog_xml_next(lifelog_xml_reader *reader);

/// From now on, lifelog_xml_next also returns 3 at a text node (text, CDATA or significant white
/// space: its text is lifelog_xml_value) and 4 at a document type declaration (<!DOCTYPE ...>).
void lifelog_xml_report_text(lifelog_xml_reader *reader);
/// The current text node's text (valid until the next lifelog_xml_next).
const char *lifelog_xml_value(lifelog_xml_reader *reader);
/// The element's name (valid until the next lifelog_xml_next), its depth (the root is 0).
const char *lifelog_xml_name(lifelog_xml_reader *reader);
int lifelog_xml_depth(lifelog_xml_reader *reader);

/// The line the current element starts on (-1 when unknown).
int lifelog_xml_line(lifelog_xml_reader *reader);

/// Copies attribute `name` of the current element into `buffer` (NUL-terminated, cut to fit);
/// returns its length, or -1 when the element has no such attribute.
int lifelog_xml_attribute(lifelog_xml_reader *reader, const char *name, char *buffer, int length);

/// The first error libxml2 reported, with its line ("" when none).
const char *lifelog_xml_error(lifelog_xml_reader *reader);

void lifelog_xml_close(lifelog_xml_reader *reader);

#endif
