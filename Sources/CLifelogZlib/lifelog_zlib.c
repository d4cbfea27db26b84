#include "lifelog_zlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

static struct {
  int loaded;
  int (*init)(z_streamp, int, const char *, int);
  int (*inflate)(z_streamp, int);
  int (*end)(z_streamp);
  unsigned long (*crc32)(unsigned long, const unsigned char *, unsigned);
} zlib;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

struct lifelog_inflater {
  z_stream stream;
};

int lifelog_zlib_load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (zlib.loaded) {
    pthread_mutex_unlock(&load_lock);
    return 0;
  }
  void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(error, error_length, "cannot load zlib, which reading a zip file needs (install Debian's zlib1g): %s",
             dlerror());
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
  *(void **)(&zlib.init) = dlsym(library, "inflateInit2_");
  *(void **)(&zlib.inflate) = dlsym(library, "inflate");
  *(void **)(&zlib.end) = dlsym(library, "inflateEnd");
  *(void **)(&zlib.crc32) = dlsym(library, "crc32");
  if (!zlib.init || !zlib.inflate || !zlib.end || !zlib.crc32) {
    snprintf(error, error_length, "zlib lacks inflateInit2_, inflate, inflateEnd or crc32");
    pthread_mutex_unlock(&load_lock);
    return -1;
  }
  zlib.loaded = 1;
  pthread_mutex_unlock(&load_lock);
  return 0;
}

lifelog_inflater *lifelog_inflate_open(void) {
  lifelog_inflater *inflater = calloc(1, sizeof *inflater);
  if (!inflater) return NULL;
  if (zlib.init(&inflater->stream, -15, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) {
    free(inflater);
    return NULL;
  }
  return inflater;
}

int lifelog_inflate(lifelog_inflater *inflater, const unsigned char *input, unsigned input_length,
                    unsigned *used, unsigned char *output, unsigned output_length, unsigned *made) {
  z_stream *stream = &inflater->stream;
  stream->next_in = (unsigned char *)input;
  stream->avail_in = input_length;
  stream->next_out = output;
  stream->avail_out = output_length;
  int status = zlib.inflate(stream, Z_NO_FLUSH);
  *used = input_length - stream->avail_in;
  *made = output_length - stream->avail_out;
  if (status == Z_STREAM_END) return 1;
  if (status == Z_OK || status == Z_BUF_ERROR) return 0;
  return -1;
}

void lifelog_inflate_close(lifelog_inflater *inflater) {
  if (!inflater) return;
  zlib.end(&inflater->stream);
  free(inflater);
}

unsigned long lifelog_crc32(unsigned long crc, const unsigned char *data, unsigned length) {
  return zlib.crc32(crc, data, length);
}
