#include "lifelog_xml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libxml2 2.9's ABI, as far as it is used: opaque pointers and int-sized enums. */
typedef void *xml_reader;
typedef int (*xml_input_read)(void *, char *, int);
typedef int (*xml_input_close)(void *);
typedef void (*xml_reader_error)(void *arg, const char *message, int severity, void *locator);

enum { XML_PARSE_NONET = 1 << 11, XML_PARSE_COMPACT = 1 << 16, XML_PARSE_BIG_LINES = 1 << 22 };
enum { XML_PARSER_SEVERITY_ERROR = 4 };
enum { NODE_ELEMENT = 1, NODE_TEXT = 3, NODE_CDATA = 4, NODE_DOCUMENT_TYPE = 10,
       NODE_SIGNIFICANT_WHITESPACE = 14, NODE_END_ELEMENT = 15 };
enum { XML_ENTITY_DECL = 17 };

/* The fields every libxml2 tree node starts with (struct _xmlNode, _xmlDtd, _xmlEntity alike). */
struct xml_node_head {
  void *private_data;
  int type;
  const char *name;
  struct xml_node_head *children, *last, *parent, *next, *prev;
  void *doc;
};

static struct {
  int loaded;
  xml_reader (*for_io)(xml_input_read, xml_input_close, void *, const char *, const char *, int);
  int (*read)(xml_reader);
  int (*node_type)(xml_reader);
  int (*is_empty)(xml_reader);
  int (*depth)(xml_reader);
  const unsigned char *(*name)(xml_reader);
  const unsigned char *(*value)(xml_reader);
  unsigned char *(*attribute)(xml_reader, const unsigned char *);
  void *(*current_node)(xml_reader);
  long (*node_line)(void *);
  void (*set_error_handler)(xml_reader, xml_reader_error, void *);
  int (*locator_line)(void *);
  void (*free_reader)(xml_reader);
  void (**free)(void *);
} xml;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

struct lifelog_xml_reader {
  xml_reader reader;
  int pending_end; /* an empty element's start was returned: its end comes next */
  int reports_text; /* lifelog_xml_report_text was called */
  char error[512];
};

int lifelog_xml_load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (xml.loaded) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(error, error_length,
             "cannot load libxml2, which --from apple-health and xlsx import need (install Debian's libxml2 package): %s",
             dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
#define RESOLVE(field, symbol)                                                                 \
  *(void **)(&xml.field) = dlsym(library, symbol);                                             \
  if (!xml.field) {                                                                            \
    snprintf(error, error_length, "libxml2 lacks %s (install libxml2 2.9 or newer)", symbol);  \
    pthread_mutex_unlock(&load_lock);                                                          \
    return -1;                                                                                 \
  }
  RESOLVE(for_io, "xmlReaderForIO")
  RESOLVE(read, "xmlTextReaderRead")
  RESOLVE(node_type, "xmlTextReaderNodeType")
  RESOLVE(is_empty, "xmlTextReaderIsEmptyElement")
  RESOLVE(depth, "xmlTextReaderDepth")
  RESOLVE(name, "xmlTextReaderConstName")
  RESOLVE(value, "xmlTextReaderConstValue")
  RESOLVE(attribute, "xmlTextReaderGetAttribute")
  RESOLVE(current_node, "xmlTextReaderCurrentNode")
  RESOLVE(node_line, "xmlGetLineNo")
  RESOLVE(set_error_handler, "xmlTextReaderSetErrorHandler")
  RESOLVE(locator_line, "xmlTextReaderLocatorLineNumber")
  RESOLVE(free_reader, "xmlFreeTextReader")
  RESOLVE(free, "xmlFree") /* a variable holding the deallocator */
#undef RESOLVE
  xml.loaded = 1;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

static void record_error(void *arg, const char *message, int severity, void *locator) {
  lifelog_xml_reader *reader = arg;
  if (severity < XML_PARSER_SEVERITY_ERROR || reader->error[0]) return;
  int line = locator ? xml.locator_line(locator) : -1;
  snprintf(reader->error, sizeof reader->error, "line %d: %s", line, message ? message : "error");
  size_t length = strlen(reader->error);
  while (length > 0 && (reader->error[length - 1] == '\n' || reader->error[length - 1] == ' '))
    reader->error[--length] = 0;
}

lifelog_xml_reader *lifelog_xml_open(lifelog_xml_read_fn read, void *context) {
  lifelog_xml_reader *reader = calloc(1, sizeof *reader);
  if (!reader) return NULL;
  reader->reader = xml.for_io(read, NULL, context, "export.xml", NULL, XML_PARSE_NONET | XML_PARSE_COMPACT | XML_PARSE_BIG_LINES);
  if (!reader->reader) {
    free(reader);
    return NULL;
  }
  xml.set_error_handler(reader->reader, record_error, reader);
  return reader;
}

/* Whether the document type the reader is on declares an entity (<!ENTITY ...>), general or
   parameter: libxml2 links each declaration into the DTD's children. Read before any element. */
static int declares_entity(lifelog_xml_reader *reader) {
  struct xml_node_head *dtd = xml.current_node(reader->reader);
  for (struct xml_node_head *child = dtd ? dtd->children : NULL; child; child = child->next) {
    if (child->type != XML_ENTITY_DECL) continue;
    snprintf(reader->error, sizeof reader->error, "%s", child->name ? child->name : "");
    return 1;
  }
  return 0;
}

int lifelog_xml_next(lifelog_xml_reader *reader) {
  if (reader->pending_end) {
    reader->pending_end = 0;
    return 2;
  }
  while (1) {
    int status = xml.read(reader->reader);
    if (status <= 0) {
      if (status == 0 && !reader->error[0]) return 0;
      if (!reader->error[0]) snprintf(reader->error, sizeof reader->error, "the XML is malformed");
      return -1;
    }
    int type = xml.node_type(reader->reader);
    if (type == NODE_DOCUMENT_TYPE && declares_entity(reader)) return -2;
    if (type == NODE_ELEMENT) {
      reader->pending_end = xml.is_empty(reader->reader) == 1;
      return 1;
    }
    if (type == NODE_END_ELEMENT) return 2;
    if (!reader->reports_text) continue;
    if (type == NODE_TEXT || type == NODE_CDATA || type == NODE_SIGNIFICANT_WHITESPACE) return 3;
    if (type == NODE_DOCUMENT_TYPE) return 4;
  }
}

const char *lifelog_xml_name(lifelog_xml_reader *reader) {
  const unsigned char *name = xml.name(reader->reader);
  return name ? (const char *)name : "";
}

void lifelog_xml_report_text(lifelog_xml_reader *reader) { reader->reports_text = 1; }

const char *lifelog_xml_value(lifelog_xml_reader *reader) {
  const unsigned char *value = xml.value(reader->reader);
  return value ? (const char *)value : "";
}

int lifelog_xml_depth(lifelog_xml_reader *reader) { return xml.depth(reader->reader); }

int lifelog_xml_line(lifelog_xml_reader *reader) {
  void *node = xml.current_node(reader->reader);
  long line = node ? xml.node_line(node) : -1;
  return line > 0 && line < 0x7fffffff ? (int)line : -1;
}

int lifelog_xml_attribute(lifelog_xml_reader *reader, const char *name, char *buffer, int length) {
  unsigned char *value = xml.attribute(reader->reader, (const unsigned char *)name);
  if (!value) return -1;
  size_t size = strlen((const char *)value);
  if (length > 0) {
    size_t copied = size < (size_t)length - 1 ? size : (size_t)length - 1;
    memcpy(buffer, value, copied);
    buffer[copied] = 0;
    size = copied;
  }
  (*xml.free)(value);
  return (int)size;
}

const char *lifelog_xml_error(lifelog_xml_reader *reader) { return reader->error; }

void lifelog_xml_close(lifelog_xml_reader *reader) {
  if (!reader) return;
  xml.free_reader(reader->reader);
  free(reader);
}
