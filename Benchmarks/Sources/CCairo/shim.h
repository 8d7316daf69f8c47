// cairo's C API, installed by Debian's libcairo2-dev (a peer for comparison, never shipped),
// with its FreeType font backend for the text benchmark (libfreetype-dev).
#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
