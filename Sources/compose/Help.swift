import Foundation
import SceneFile
import SceneGraph

let rootHelp = """
OVERVIEW: Render layered 2D scenes with SwiftUI's compositing semantics.

USAGE: compose <subcommand> [options]

OPTIONS:
  --version               Show the version.
  -h, --help              Show help information.

SUBCOMMANDS:
  render                  Render a scene to PNG.
  animate                 Render a scene's animation to a PNG sequence or raw video.
  explain                 Show where a scene goes offscreen and what each boundary costs.
  report                  Write what a render costs as one self-contained HTML page.
  preview                 Serve that page on 127.0.0.1, re-rendered whenever the scene changes.
  bench                   Time a scene's render, phase by phase.
  diff                    Compare two PNG images.

  See 'compose help <subcommand>' for detailed help.
"""

/// The arguments `render`, `explain` and `bench` share.
let sceneArgumentsHelp = """
  <scene>                 A scene file ('-' reads standard input), or an .svg file.
  --demo                  Use the built-in demo scene instead of a file.
  --scale <scale>         Pixels per point, from 0.1 to 8. (default: the scene's canvas, else 1)
  --size <WxH>            Canvas size in points. (default: the scene's canvas, else 400x300)
  --width <px>, --height <px>
                          The output's width or height in pixels, the scale following; both:
                          the largest size within them.
  --allow-files <dir>     An SVG file's images may be read from this folder and below.
                          (default: the SVG file's own folder only)
  --fonts <path>          A font file or folder for Font.custom(_:size:), repeatable; also read:
                          COMPOSE_FONT_PATH (folders, ':'-separated) and a fonts/ folder beside
                          the scene.
  --symbols <path>        An SVG file or folder of them (filled <path> elements) drawn by
                          Image(systemName:) under the file's name, repeatable.
  --threads <n>           Threads one render draws on, 1 to 64: runs of solid fills are drawn
                          band by band, the bands dealt to the threads; the image is the same
                          bytes whatever the count. (default: the active cores; for animate,
                          the active cores divided among the jobs)

"""

/// The limit flags, with the defaults `SceneLimits` and `Renderer` actually use.
let sceneLimitsHelp: String = {
    let d = SceneLimits()
    return """

    SCENE LIMITS (each stops a runaway scene with a located error; raise when you mean it):
      --max-depth <n>         Nesting of expressions, closures and modifier chains, up to \(SceneLimits.maximumAllowedDepth).
                              (default: \(d.maximumDepth))
      --max-iterations <n>    Loop iterations and ForEach/array elements. (default: \(d.maximumIterations))
      --max-path-elements <n> Elements of one Path { p in … }. (default: \(d.maximumPathElements))
      --max-pixels <n>        Canvas pixels, width × height × scale². (default: \(d.maximumCanvasPixels))
      --max-scene-bytes <n>   Size of the scene file. (default: \(d.maximumSourceBytes))
      --max-coordinate <x>    Magnitude of any geometric argument, in points. (default: \(Int(d.maximumCoordinate)))
      --max-image-bytes <n>   Size of a PNG file an Image("…") reads. (default: \(d.maximumImageBytes))
      --max-shadow-radius <r> shadow(radius:) in points, at most the engine's 256. (default: \(Int(d.maximumShadowRadius)))
      --max-blur-radius <r>   blur(radius:) in points, at most the engine's 128. (default: \(Int(d.maximumBlurRadius)))
      --max-offscreen-bytes <n>
                              Offscreen layers alive at once during the render. (default: \(Renderer().maximumOffscreenBytes))
      --max-segments <n>      Line segments one path flattens into (a curve: up to 4,096). (default: \(Renderer().maximumPathSegments))
      --max-dashes <n>        Dashes one stroke's pattern may cut its path into. (default: \(Renderer().maximumDashes))
      --max-stroke-points <n> Points of one stroke's outline. (default: \(Renderer().maximumStrokeOutlinePoints))
    """
}()

let renderHelp = """
OVERVIEW: Render a scene to PNG.

USAGE: compose render <scene> [-o <output>] [--scale <scale>] [--size <WxH>]
                      [--background <color>] [--stats] [--stats-json <file>] [--trace <file>]
                      [--overlay offscreen|layers] [--time <seconds|N%>]
       compose render <scene> <scene>… [--output-dir <dir>] [--jobs <n>] [options]

ARGUMENTS AND OPTIONS:
\(sceneArgumentsHelp)  --background <color>    'transparent', a colour name ('white', 'blue' …) or hex ('#FFCC00').
                          (default: the scene's canvas, else white)
  -o, --output <output>   Where to write the PNG ('-' for standard output).
                          (default: the scene's name with '.png', in the current folder)
  --output-dir <dir>      Write each scene's image to <dir>/<its name>.png; with several
                          scenes, all are rendered by this one process (a failed scene is
                          reported, the others are still written). (default: the current folder)
  -j, --jobs <n>          Scenes rendered at once, 1 to 256. (default: the active cores, never
                          more than the scenes; each render's --threads: the cores divided
                          among the jobs)
  --stats                 Print what the render cost (leaf draws, offscreen layers with bounds
                          and bytes, peak offscreen bytes, milliseconds per phase) on stderr.
  --stats-json <file>     Write the same statistics as JSON.
  --trace <file>          Write the render's timeline as Chrome Trace Event JSON (Perfetto,
                          chrome://tracing).
  --time <t>              For a scene with states: draw its animation at t seconds, or at a
                          share of its duration ('50%'). (default: the start state)
  --overlay <kind>        Draw over the result: 'offscreen' tints offscreen regions yellow,
                          'layers' outlines each layer (compositing groups red, drawing groups
                          blue, shadow masks purple).
  -h, --help              Show help information.
\(sceneLimitsHelp)

Every destination is checked before any file is written, and each is written atomically: on
an error no file is left half-written and existing files are left untouched.

EXIT STATUS: 0 written, 64 usage error, 65 the scene has errors (each printed as
file:line:column with the source line), 66 the scene file cannot be read, 73/74 an output
cannot be written. With several scenes: the status of the first one that failed.
"""

/// The scene arguments without `--demo` (the demo has no animation).
let sceneFileArgumentsHelp = sceneArgumentsHelp.split(separator: "\n", omittingEmptySubsequences: false)
    .filter { !$0.contains("--demo") }.joined(separator: "\n")

let animateHelp = """
OVERVIEW: Render a scene's animation to a PNG sequence or raw video.

The scene declares its states and, optionally, the animation between them:

    state isAvailable = false -> true
    animation(.easeInOut(duration: 1.2))

Frame i shows the change i/fps seconds after it starts. A change that ends is covered from 0
to its end inclusive (⌈duration × fps⌉ + 1 frames; a spring ends once it stays within 0.001
of its target); one that repeats forever, for one period (a seamless loop). Every frame is
independent, so frames can be split across processes or machines with --frames and --shard
(GNU parallel, a Slurm array, a Kubernetes indexed job): the union of the shards is, byte for
byte, one full run.

USAGE: compose animate <scene> -o <frames/%04d.png> [--fps <fps>] [--frames <A..<B>]
                       [--shard <I/N>] [--jobs <n>] [--format png|rawvideo] [--duration <seconds>]

ARGUMENTS AND OPTIONS:
\(sceneFileArgumentsHelp)  --background <color>    'transparent', a colour name or hex. (default: the scene's canvas)
  -o, --output <pattern>  Where to write each frame: a path with one %d or %0Nd for the frame
                          number, e.g. frames/%04d.png. Each file is written atomically.
  --fps <fps>             Frames per second, 1 to 1000. (default: 60)
  --frames <range>        Only these frames: A..<B, A...B or A. (default: all)
  --shard <I/N>           Only every N-th frame, starting at frame I (0 ≤ I < N).
  --shard-index-from-env <NAME> --shard-count <N>
                          The same, with I read from the environment variable NAME, as job
                          schedulers set it: JOB_COMPLETION_INDEX (a Kubernetes indexed job),
                          SLURM_ARRAY_TASK_ID (a Slurm array). See docs/scaling.md.
  --format <format>       'png' (default), or 'rawvideo': un-premultiplied BGRA frames on
                          standard output, for
                            compose animate s.scene --format rawvideo |
                              ffmpeg -f rawvideo -pix_fmt bgra -s WxH -r FPS -i - out.mp4
                          (W×H in pixels: the canvas times its scale; the summary prints it).
  --duration <seconds>    Cover this long instead of the animation's own duration.
  -j, --jobs <n>          Frames rendered at once, each by a renderer of its own on its own
                          thread, 1 to \(maximumJobs); they share one drawing-group cache, and the
                          frames are the same bytes whatever the count. (default: the active
                          cores)
  --max-frames <n>        Refuse a sequence longer than this. (default: \(defaultMaximumFrames))
  -q, --quiet             No progress bar (shown on a terminal only) and no summary.
  -h, --help              Show help information.
\(sceneLimitsHelp)

The summary on standard error gives frames per second and the drawing-group cache's hits per
frame (a drawing group whose content does not change is rasterized once for the sequence).

EXIT STATUS: 0 written, 64 usage error, 65 the scene has errors, declares no state, or needs
more frames than --max-frames, 66 the scene file cannot be read, 73/74 a frame cannot be
written (frames already written are complete files).
"""

let explainHelp = """
OVERVIEW: Show where a scene goes offscreen and what each boundary costs.

Prints the display list as a tree: every leaf with its paint and per-leaf effects, every
compositing and drawing group with its device bounds, pixel format, colour mode and bytes,
how many leaves each distributed effect reached, and warnings (an outer blend mode a nearer
one overrides, a drawing group with nothing worth caching, ink clipped by a drawing group's
frame, a group larger than the canvas), each with the scene file's line and column of the
view it is about when known (file:line:column: warning: …). Nothing is drawn.

USAGE: compose explain <scene> [--json] [--scale <scale>] [--size <WxH>]

ARGUMENTS AND OPTIONS:
\(sceneArgumentsHelp)  --json                  Print the same as JSON.
  -h, --help              Show help information.
\(sceneLimitsHelp)
"""

let benchHelp = """
OVERVIEW: Time a scene's render, phase by phase.

Renders once untimed, then <runs> times with a new renderer each (cold) and <runs> times with
one renderer kept between renders (warm, with its drawing-group cache), and prints the median
milliseconds of each phase (layout, lowering, rasterization, composition, filters, PNG
encoding) and of the whole render.

USAGE: compose bench <scene> [-n <runs>] [--json] [--scale <scale>] [--size <WxH>]

ARGUMENTS AND OPTIONS:
\(sceneArgumentsHelp)  -n, --runs <runs>       Timed renders of each kind, 1 to 10000. (default: 10)
  --json                  Print the medians as JSON.
  -h, --help              Show help information.
\(sceneLimitsHelp)
"""

let diffHelp = """
OVERVIEW: Compare two PNG images pixel by pixel.

Channels are compared un-premultiplied, in 8-bit units; pixels transparent in both images are
equal. Prints the number of differing pixels, the largest channel difference, the largest
CIEDE2000 ΔE and the worst pixel.

USAGE: compose diff <expected.png> <actual.png> [--tolerance <n>] [--perceptual <ΔE>]
                    [--max-differing <fraction>] [-o <diff.png>]

OPTIONS:
  --tolerance <n>          Largest channel difference that still counts as equal, 0…255. (default: 0)
  --perceptual <ΔE>        Also accept pixels whose CIEDE2000 ΔE is at most this.
  --max-differing <f>      Share of pixels, 0…1, allowed to differ. (default: 0)
  -o, --output <diff.png>  Write a difference image: differing pixels red over a faded copy
                           of the expected image.
  -h, --help               Show help information.

EXIT STATUS: 0 equal within the tolerances, 1 different, 64 usage error, 65 the images differ
in size, 66 an image cannot be read, 73 the difference image cannot be written.
"""


let reportHelp = """
OVERVIEW: Write what a render costs as one self-contained HTML page.

The page holds the render (with the offscreen and layer overlays as toggles), the layer plan
as a table (one row per offscreen image: its kind, why it is a layer, bounds, pixel format,
bytes and time; hovering or focusing a row outlines it on the render), the per-leaf effects,
explain's warnings with their source lines, the phases as a bar chart and the trace as a
timeline. For a scene with states it adds a filmstrip and the cost of each frame (ms, images,
bytes, cache hits) along the change. Images are embedded; the page loads nothing from
anywhere. 'compose preview' serves the same page and keeps it up to date.

USAGE: compose report <scene> [-o <report.html>] [--frames <n>] [--time <seconds|N%>]
                      [--scale <scale>] [--size <WxH>] [--background <color>]

ARGUMENTS AND OPTIONS:
\(sceneArgumentsHelp)  --background <color>    'transparent', a colour name or hex. (default: the scene's canvas)
  -o, --output <file>     Where to write the page ('-' for standard output).
                          (default: the scene's name with '.html', in the current folder)
  --frames <n>            For a scene with states: frames timed along its change, 0 to \(maximumReportFrames)
                          (0: none). (default: \(defaultReportFrames))
  --time <t>              For a scene with states: report the render at t seconds, or at a
                          share of its duration ('50%'). (default: the start state)
  -h, --help              Show help information.
\(sceneLimitsHelp)

The page is written atomically, after the render: on an error no file is written and an
existing one is left untouched.

EXIT STATUS: 0 written, 64 usage error, 65 the scene has errors, 66 the scene file cannot be
read, 73/74 the page cannot be written.
"""

let previewHelp = """
OVERVIEW: Serve a scene's report on 127.0.0.1, re-rendered whenever the scene changes.

Open the address it prints in a browser. The page is the one 'compose report' writes; when
the scene file changes (saved in place or renamed over), the scene is rendered again and the
page replaces itself, keeping the overlay toggles. When the scene has errors, the page shows
them (file:line:column, with the source line) above the last good render. Only the scene
file itself is watched, not the images or fonts it uses.

The server listens on 127.0.0.1 only and answers GET and HEAD of '/', '/version' and '/wait';
no request is mapped to a file. Requests are limited in size (8 KiB of headers), time (5 s to
send one) and number (32 connections), and must name 127.0.0.1 or localhost as their host;
anything else gets a 4xx. Ctrl-C (or SIGTERM) stops it.

USAGE: compose preview <scene> [--port <port>] [--frames <n>] [--time <seconds|N%>]
                       [--scale <scale>] [--size <WxH>] [--background <color>]

ARGUMENTS AND OPTIONS:
\(sceneArgumentsHelp)  --background <color>    'transparent', a colour name or hex. (default: the scene's canvas)
  --port <port>           The port on 127.0.0.1, 0 for any free one. (default: \(defaultPreviewPort))
  --frames <n>            For a scene with states: frames timed along its change, 0 to \(maximumReportFrames).
                          (default: \(defaultReportFrames))
  --time <t>              For a scene with states: show the render at t seconds, or at a share of
                          its duration ('50%'). (default: the start state)
  -h, --help              Show help information.
\(sceneLimitsHelp)

EXIT STATUS: 0 stopped by Ctrl-C or SIGTERM, 64 usage error, 66 the scene file does not
exist or a --fonts/--symbols path cannot be read, 69 the port cannot be listened on.
"""
