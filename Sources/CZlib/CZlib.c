#include "CZlib.h"

int czlib_deflate_init(z_stream *stream, int level) {
    return deflateInit(stream, level);
}

int czlib_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}
