#!/usr/bin/env python3
"""Writes Sources/SceneGraph/Symbols/SymbolData.swift: the SF Symbols stand-ins, from Phosphor.

SF Symbols are licensed for Apple platforms only, so none can ship. Phosphor (MIT) has weights
and filled drawings as SF does; its "flat" SVGs are one filled path each in a 256-unit square,
which the engine's `Path(svgPath:)` reads as they are.

Run by hand (the output is committed; nothing here runs at build time):

    pip download py-phosphor-icons==0.1.1 --no-deps -d /tmp/phosphor
    python3 Tools/make-symbols.py /tmp/phosphor/py_phosphor_icons-0.1.1-py3-none-any.whl

Symbols Phosphor lacks (wave.3.right and wave.3.left) are drawn by the engine itself
(Sources/SceneGraph/Symbols/Symbols.swift), not here.
"""
import re
import sys
import zipfile

# SF Symbol name -> Phosphor icon. A ".fill" SF name uses the icon's filled drawing.
MAPPING = {
    "checkmark": "check", "xmark": "x", "plus": "plus", "minus": "minus",
    "arrow.down": "arrow-down", "arrow.up": "arrow-up", "arrow.left": "arrow-left", "arrow.right": "arrow-right",
    "chevron.left": "caret-left", "chevron.right": "caret-right", "chevron.up": "caret-up", "chevron.down": "caret-down",
    "heart": "heart", "star": "star", "star.leadinghalf.filled": "star-half",
    "gearshape": "gear-six", "gear": "gear", "magnifyingglass": "magnifying-glass", "house": "house",
    "person": "user", "person.2": "users", "person.circle": "user-circle", "person.badge.plus": "user-plus",
    "bell": "bell", "bell.slash": "bell-slash", "trash": "trash", "pencil": "pencil-simple",
    "square.and.arrow.up": "export", "square.and.arrow.down": "download-simple", "envelope": "envelope",
    "phone": "phone", "paperplane": "paper-plane-tilt", "calendar": "calendar-blank", "clock": "clock",
    "lock": "lock", "lock.open": "lock-open", "wifi": "wifi-high", "bolt": "lightning", "sun.max": "sun",
    "moon": "moon", "cloud": "cloud", "cloud.rain": "cloud-rain", "snowflake": "snowflake", "wind": "wind",
    "umbrella": "umbrella", "play": "play", "pause": "pause", "stop": "stop", "forward": "fast-forward",
    "backward": "rewind", "speaker.wave.2": "speaker-high", "speaker.slash": "speaker-x", "mic": "microphone",
    "camera": "camera", "photo": "image", "folder": "folder", "doc": "file", "doc.on.doc": "copy",
    "doc.on.clipboard": "clipboard-text", "link": "link", "paperclip": "paperclip", "scissors": "scissors",
    "info.circle": "info", "exclamationmark.triangle": "warning", "questionmark.circle": "question",
    "xmark.circle": "x-circle", "checkmark.circle": "check-circle", "plus.circle": "plus-circle",
    "minus.circle": "minus-circle", "arrow.down.circle": "arrow-circle-down", "arrow.up.circle": "arrow-circle-up",
    "ellipsis": "dots-three", "line.3.horizontal": "list", "square.grid.2x2": "squares-four",
    "cart": "shopping-cart", "creditcard": "credit-card", "map": "map-trifold", "location": "navigation-arrow",
    "mappin": "map-pin", "globe": "globe", "flag": "flag", "bookmark": "bookmark-simple", "tag": "tag",
    "eye": "eye", "eye.slash": "eye-slash", "hand.thumbsup": "thumbs-up", "arrow.clockwise": "arrow-clockwise",
    "arrow.counterclockwise": "arrow-counter-clockwise", "arrow.triangle.2.circlepath": "arrows-clockwise",
    "arrow.up.left.and.arrow.down.right": "arrows-out", "arrow.down.right.and.arrow.up.left": "arrows-in",
    "antenna.radiowaves.left.and.right": "broadcast", "battery.100": "battery-full", "battery.0": "battery-empty",
    "airplane": "airplane", "car": "car", "gift": "gift", "leaf": "leaf", "flame": "fire", "drop": "drop",
    "music.note": "music-note", "sparkles": "sparkle", "wand.and.stars": "magic-wand", "message": "chat-circle",
    "circle": "circle", "square": "square", "shield": "shield", "checkmark.shield": "shield-check", "key": "key",
    "printer": "printer", "tray": "tray", "archivebox": "archive", "chart.bar": "chart-bar",
    "chart.pie": "chart-pie", "cpu": "cpu", "desktopcomputer": "desktop", "iphone": "device-mobile",
    "laptopcomputer": "laptop", "headphones": "headphones", "power": "power", "trophy": "trophy",
    "crown": "crown", "medal": "medal", "scope": "target", "safari": "compass", "timer": "timer",
    "hourglass": "hourglass", "alarm": "alarm", "line.3.horizontal.decrease": "funnel",
    "slider.horizontal.3": "sliders-horizontal", "figure.stand": "person-simple",
}
WEIGHTS = ["thin", "light", "regular", "bold", "fill"]


def main(wheel):
    archive = zipfile.ZipFile(wheel)
    root = "py_phosphor_icons/svgs/flat/"
    out = []
    for icon in sorted(set(MAPPING.values())):
        for weight in WEIGHTS:
            name = icon if weight == "regular" else f"{icon}-{weight}"
            svg = archive.read(f"{root}{weight}/{name}.svg").decode()
            assert 'viewBox="0 0 256 256"' in svg, name
            data = " ".join(re.findall(r'<path d="([^"]+)"', svg))
            assert data and "\n" not in data, name
            out.append(f"{icon} {weight} {data}")
    names = [f"{sf} {icon}" for sf, icon in sorted(MAPPING.items())]
    with open("Sources/SceneGraph/Symbols/SymbolData.swift", "w") as f:
        f.write("// Generated by Tools/make-symbols.py from Phosphor 2.1.0 (py-phosphor-icons 0.1.1); do not edit.\n")
        f.write("// Phosphor Icons: MIT License, Copyright (c) 2023 Phosphor Icons (see THIRD_PARTY_NOTICES.md).\n\n")
        f.write("extension SymbolSet {\n")
        f.write("    /// SF Symbol name, then the Phosphor icon drawing it; one pair a line.\n")
        f.write('    static let sfNames = #"""\n' + "\n".join(names) + '\n"""#\n\n')
        f.write("    /// Phosphor icon, weight, then its path data in a 256-unit square (y down); one a line.\n")
        f.write('    static let drawings = #"""\n' + "\n".join(out) + '\n"""#\n')
        f.write("}\n")
    print(f"{len(MAPPING)} SF names, {len(out)} drawings")


if __name__ == "__main__":
    main(sys.argv[1])
