#include "lifelog_qr.h"

#include <dlfcn.h>
#include <pthread.h>
#include <qrencode.h>
#include <stdio.h>

/* The libqrencode functions used, resolved once with dlsym. */
static struct {
  int loaded;
  QRcode *(*encode)(const char *, int, QRecLevel, QRencodeMode, int);
  void (*release)(QRcode *);
} qr;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static int load(char *error, size_t error_length) {
  pthread_mutex_lock(&load_lock);
  if (!qr.loaded) {
    void *library = dlopen("libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      snprintf(error, error_length, "cannot load libqrencode (install Debian's libqrencode4 package): %s",
               dlerror());
      pthread_mutex_unlock(&load_lock);
      return -1;
    }
    *(void **)(&qr.encode) = dlsym(library, "QRcode_encodeString");
    *(void **)(&qr.release) = dlsym(library, "QRcode_free");
    if (!qr.encode || !qr.release) {
      snprintf(error, error_length, "libqrencode lacks QRcode_encodeString or QRcode_free");
      pthread_mutex_unlock(&load_lock);
      return -1;
    }
    qr.loaded = 1;
  }
  pthread_mutex_unlock(&load_lock);
  return 0;
}

int lifelog_qr_encode(const char *text, unsigned char *modules, size_t capacity, int *width, char *error,
                      size_t error_length) {
  if (load(error, error_length) != 0) return -1;
  QRcode *code = qr.encode(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
  if (!code) {
    snprintf(error, error_length, "the text is too long for a QR code");
    return -1;
  }
  size_t count = (size_t)code->width * (size_t)code->width;
  if (count > capacity) {
    qr.release(code);
    snprintf(error, error_length, "the QR code is larger than expected");
    return -1;
  }
  for (size_t index = 0; index < count; index++) modules[index] = code->data[index] & 1;
  *width = code->width;
  qr.release(code);
  return 0;
}
