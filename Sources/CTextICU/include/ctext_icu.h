#ifndef CTEXT_ICU_H
#define CTEXT_ICU_H

// ICU's line breaking (UAX #14), bidi (UAX #9) and scripts behind a plain-C interface: Debian's ICU headers cannot be
// imported into Swift beside Foundation (its own ICU declares the same C types), and ICU's
// functions carry a version suffix. Only stdint types cross this header.

#include <stdint.h>

/// The line-break opportunities of `text` (UTF-16, `length` units): offsets where a line may
/// start, in increasing order, the last being `length`. Writes at most `capacity` offsets to
/// `out` and returns how many there are (more than `capacity` means `out` was too small), or
/// -1 when ICU fails.
int32_t ctext_line_breaks(const uint16_t *text, int32_t length, int32_t *out, int32_t capacity);

/// Whether the break before `offset` is a hard one (after a mandatory line break: a newline,
/// U+2028, U+2029). `offsets` as returned by `ctext_line_breaks`.
int32_t ctext_line_break_is_hard(const uint16_t *text, int32_t length, int32_t offset);

/// The bidi embedding level of each UTF-16 unit of `text` (UAX #9; even: left to right, odd:
/// right to left), each paragraph's base direction from its first strong character
/// (left to right when it has none), written to `levels`; each unit's paragraph level to
/// `paragraph_levels`. Both hold `length` entries. Returns 0, or -1 when ICU fails.
int32_t ctext_bidi_levels(const uint16_t *text, int32_t length, uint8_t *levels, uint8_t *paragraph_levels);

/// ICU's long name of the script of `scalar` ("Latin", "Arabic", "Han", "Common",
/// "Canadian_Aboriginal" …), NUL-terminated in `out` (cut to `capacity`). Returns its length,
/// or -1 when ICU fails.
int32_t ctext_script_name(uint32_t scalar, char *out, int32_t capacity);

#endif
