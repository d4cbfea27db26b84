#ifndef LIFELOG_ZLIB_H
#define LIFELOG_ZLIB_H

#include <stddef.h>

/// zlib's raw inflate, loaded with dlopen the first time, so only reading a zip file (Apple
/// Health's export.zip) loads libz.so.1.

typedef struct lifelog_inflater lifelog_inflater;

/// Loads zlib; 0, or -1 with a message in `error`.
int lifelog_zlib_load(char *error, size_t error_length);

/// A raw-deflate decompressor (a zip entry's method 8); NULL when out of memory.
lifelog_inflater *lifelog_inflate_open(void);

/// Inflates from `input` (`input_length` bytes) into `output`: `used` and `made` receive how many
/// bytes were consumed and produced. Returns 0 to go on, 1 at the end of the stream, -1 when the
/// data is not valid deflate.
int lifelog_inflate(lifelog_inflater *inflater, const unsigned char *input, unsigned input_length,
                    unsigned *used, unsigned char *output, unsigned output_length, unsigned *made);

void lifelog_inflate_close(lifelog_inflater *inflater);

/// zlib's CRC-32 of `length` more bytes after `crc` (0 to start): a zip entry's checksum.
unsigned long lifelog_crc32(unsigned long crc, const unsigned char *data, unsigned length);

#endif
