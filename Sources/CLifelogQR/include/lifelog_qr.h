#ifndef LIFELOG_QR_H
#define LIFELOG_QR_H

#include <stddef.h>

/// QR codes for `lifelog pair` and `lifelog share`, from libqrencode (Debian's libqrencode4),
/// loaded with dlopen the first time, so the lifelog binary does not link it and every other
/// command never loads it.

/// Encodes `text` (8-bit mode, error correction M, the smallest version that holds it) into
/// `modules`: `width` × `width` bytes, 1 for a dark module, 0 for a light one, row by row.
/// `capacity` is the size of `modules`. Returns 0, or -1 with a sentence in `error` (libqrencode
/// missing, or the text too long for a QR code or for `capacity`).
int lifelog_qr_encode(const char *text, unsigned char *modules, size_t capacity, int *width, char *error,
                      size_t error_length);

#endif
