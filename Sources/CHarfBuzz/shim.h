// HarfBuzz's public API (Debian's libharfbuzz-dev): its own OpenType code for shaping, metrics
// and glyph outlines. No FreeType types here (hb-ft.h is not included).
#include <hb.h>
#include <hb-ot.h>
