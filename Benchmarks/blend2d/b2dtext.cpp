// Native Blend2D drawing the text benchmark's glyphs (Benchmarks/Sources/bench/Text.swift writes
// them: the engine's own shaping and positions, so both draw the same glyphs at the same
// places). Built by build.sh against Blend2D from the blend2d-python wheel (../shared/bench/blend2d).
//
//   b2dtext RUNS.txt            median ms of drawing the runs onto a white canvas (warm: Blend2D
//                               keeps its own glyph cache across frames)
//   b2dtext -o OUT.raw RUNS.txt also writes the frame (PRGB32) for a look
//
// RUNS.txt: "canvas W H", then per run "run FONTFILE PIXELS_PER_EM COUNT" and COUNT lines
// "GLYPH X Y" (device pixels, pen on the baseline).
#include <blend2d.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "timing.h"

struct Run {
  BLFont font;
  std::vector<uint32_t> glyphs;
  std::vector<BLPoint> points;
};

struct Frame {
  BLImage* image;
  std::vector<Run>* runs;
};

static void draw(void* p) {
  Frame* f = (Frame*)p;
  BLContext ctx(*f->image);
  ctx.fillAll(BLRgba32(0xFFFFFFFF));
  ctx.setFillStyle(BLRgba32(0xFF000000));
  for (Run& r : *f->runs) {
    BLGlyphRun run{};
    run.glyphData = r.glyphs.data();
    run.placementData = r.points.data();
    run.size = r.glyphs.size();
    run.placementType = BL_GLYPH_PLACEMENT_TYPE_ABSOLUTE_UNITS;
    run.glyphAdvance = sizeof(uint32_t);
    run.placementAdvance = sizeof(BLPoint);
    ctx.fillGlyphRun(BLPoint(0, 0), r.font, run);
  }
  ctx.end();
}

int main(int argc, char** argv) {
  const char* out = nullptr;
  int a = 1;
  if (a + 1 < argc && !strcmp(argv[a], "-o")) { out = argv[a + 1]; a += 2; }
  if (a >= argc) { fprintf(stderr, "usage: b2dtext [-o OUT.raw] RUNS.txt\n"); return 64; }
  FILE* in = fopen(argv[a], "r");
  if (!in) { fprintf(stderr, "cannot read %s\n", argv[a]); return 66; }
  int w = 0, h = 0;
  if (fscanf(in, "canvas %d %d\n", &w, &h) != 2) { fprintf(stderr, "bad header\n"); return 65; }
  std::vector<Run> runs;
  char path[4096];
  double ppem;
  int count;
  while (fscanf(in, "run %4095s %lf %d\n", path, &ppem, &count) == 3) {
    BLFontFace face;
    if (face.createFromFile(path) != BL_SUCCESS) { fprintf(stderr, "cannot load %s\n", path); return 66; }
    Run r;
    r.font.createFromFace(face, (float)ppem);
    for (int i = 0; i < count; i++) {
      unsigned g; double x, y;
      if (fscanf(in, "%u %lf %lf\n", &g, &x, &y) != 3) { fprintf(stderr, "bad glyph line\n"); return 65; }
      r.glyphs.push_back(g);
      r.points.push_back(BLPoint(x, y));
    }
    runs.push_back(std::move(r));
  }
  fclose(in);
  BLImage image(w, h, BL_FORMAT_PRGB32);
  Frame f{&image, &runs};
  TimingResult t = time_render(draw, &f);
  printf("blend2d-native\t%.3f\t%.3f\t%.3f\t%d\n", t.median, t.min, t.max, t.reps);
  if (out) {
    draw(&f);
    BLImageData d;
    image.getData(&d);
    FILE* o = fopen(out, "wb");
    for (int y = 0; y < h; y++) fwrite((char*)d.pixelData + y * d.stride, 4, w, o);
    fclose(o);
  }
  return 0;
}
