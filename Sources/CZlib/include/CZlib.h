// The system's zlib (Debian: zlib1g-dev, which .ci/run installs; Apple platforms: the SDK's) for the StatusList
// module's `lst` (draft-ietf-oauth-status-list §4.1: "compressed using DEFLATE with the ZLIB data format").
// deflateInit and inflateInit are macros, which Swift cannot call; these wrap them.
#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// deflateInit(stream, level) with the zlib header (window bits 15).
int czlib_deflate_init(z_stream *stream, int level);

/// inflateInit(stream): expects the zlib header.
int czlib_inflate_init(z_stream *stream);

#endif
