#!/bin/sh
# Writes Examples/README.md: each scene's source beside the PNG it renders to (run by
# `make examples` after rendering; ExampleSceneTests checks it lists every scene verbatim).
set -e
cd "$(dirname "$0")"
{
  echo "# Examples"
  echo
  echo "Each scene beside its render (the PNG is also its reference image). Render one with"
  echo "\`compose render Examples/NAME.scene\`; \`make examples\` re-renders them all and rewrites this page."
  echo
  echo "<table>"
  for scene in *.scene; do
    name=${scene%.scene}
    echo "<tr><td><b>$name</b><pre>"
    sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' "$scene"
    echo "</pre></td><td><img src=\"$name.png\" alt=\"$name\" width=\"360\"></td></tr>"
  done
  echo "</table>"
  echo
  echo "## SVG files"
  echo
  echo "Rendered with \`compose render Examples/NAME.svg\` (the PNG beside each is its reference image);"
  echo "\`svg-image.scene\` shows them inside a scene with \`Image(svg:)\`."
  echo
  echo "<table>"
  for svg in *.svg; do
    name=${svg%.svg}
    title=$(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$svg" | head -1)
    echo "<tr><td><b>$name.svg</b><br>$title</td><td><img src=\"$name.png\" alt=\"$name\" width=\"360\"></td></tr>"
  done
  echo "</table>"
} > README.md
