#ifndef CCOURIER_ZLIB_H
#define CCOURIER_ZLIB_H

// zlib for Courier's content decoding (and the demo server's compressed test bodies). zlib's init functions
// are macros, which Swift does not import: these wrap them.
#include <zlib.h>

/// inflateInit2 (windowBits 15 + 16: gzip; 15: zlib, the "deflate" coding).
static inline int courier_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

/// deflateInit2 with the default memory level and strategy (windowBits as for courier_inflate_init).
static inline int courier_deflate_init(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif
