import Foundation
import Testing
import Compositor
import SceneGraph
@testable import SVG

/// SVG filters: the `filter` property, `<filter>` elements and CSS filter functions, resolved
/// into filter graphs and drawn.
struct FilterTests {
    @Test func filterListsParse() {
        #expect(FilterList.parse("url(#a) blur(2px)") == [.url("url(#a)"), .function(name: "blur", arguments: "2px")])
        #expect(FilterList.parse("drop-shadow(rgb(0, 0, 0) 1px 2px)") == [.function(name: "drop-shadow", arguments: "rgb(0, 0, 0) 1px 2px")])
        #expect(FilterList.parse("blur(2px") == nil)
        #expect(FilterList.parse("2px") == nil)
        #expect(FilterList.arguments("rgb(0, 0, 0) 1px,2px") == ["rgb(0, 0, 0)", "1px", "2px"])
    }

    @Test func anglesTakeCSSUnits() {
        #expect(Resolver.angle("90deg") == 90)
        #expect(Resolver.angle("100grad") == 90)
        #expect(abs(Resolver.angle("3.14159265rad")! - 180) < 1e-6)
        #expect(Resolver.angle("0.5turn") == 180)
        #expect(Resolver.angle("0") == 0)
        #expect(Resolver.angle("45") == nil)
    }

    @Test func floodFillsTheDefaultRegion() throws {
        // The region defaults to the bounding box widened by 10 % on each side: the 10 × 10
        // rect at (5, 5) floods (4, 4)–(16, 16) in opaque blue.
        let s = try render(svg("<filter id='f'><feFlood flood-color='blue'/></filter><rect x='5' y='5' width='10' height='10' filter='url(#f)'/>"))
        #expect(s.pixel(x: 4, y: 4) == RGBA8(0, 0, 255, 255))
        #expect(s.pixel(x: 15, y: 15) == RGBA8(0, 0, 255, 255))
        #expect(s.pixel(x: 3, y: 10).a == 0 && s.pixel(x: 16, y: 10).a == 0)
    }

    @Test func filterComesBeforeOpacity() throws {
        // A flood of opaque green, then the element's opacity 0.5: alpha 128 everywhere in
        // the region (opacity applies once to the filter's result).
        let s = try render(svg("<filter id='f'><feFlood flood-color='#00ff00'/></filter><rect x='5' y='5' width='10' height='10' opacity='0.5' filter='url(#f)'/>"))
        #expect(s.pixel(x: 10, y: 10) == RGBA8(0, 255, 0, 128))
        #expect(s.pixel(x: 4, y: 4) == RGBA8(0, 255, 0, 128))
    }

    @Test func aReferenceToNothingHidesTheElement() throws {
        let doc = try document(svg("<rect width='10' height='10' filter='url(#missing)'/>"))
        #expect(doc.warnings.contains { $0.message.contains("does not name a <filter>") })
        let s = try render(svg("<rect width='10' height='10' filter='url(#missing)'/>"))
        #expect(s.pixel(x: 5, y: 5).a == 0)
    }

    @Test func filtersThatCannotBeMadeHideTheElement() throws {
        for body in ["<filter id='f'/>",
                     "<filter id='f' width='-5'><feFlood/></filter>",
                     "<filter id='f' filter='url(#f)'><feImage href='#r'/></filter>"] {
            let s = try render(svg(body + "<rect id='r' width='10' height='10' filter='url(#f)'/>"))
            #expect(s.pixel(x: 5, y: 5).a == 0, "\(body)")
        }
    }

    @Test func anInvalidFunctionIgnoresTheWholeList() throws {
        // The rect is drawn unfiltered (opaque black), not hidden and not half-transparent.
        let doc = try document(svg("<rect width='10' height='10' filter='opacity(0.5) hue-rotate(nonsense)'/>"))
        #expect(doc.warnings.contains { $0.message.contains("filter function") })
        let s = try render(svg("<rect width='10' height='10' filter='opacity(0.5) hue-rotate(nonsense)'/>"))
        #expect(s.pixel(x: 5, y: 5) == RGBA8(0, 0, 0, 255))
    }

    @Test func opacityFunctionScalesAlpha() throws {
        // opacity(0.25): alpha 0.25 × 255 = 63.75 → 64.
        let s = try render(svg("<rect width='10' height='10' fill='red' filter='opacity(0.25)'/>"))
        #expect(s.pixel(x: 5, y: 5).a == 64)
    }

    @Test func namedResultsAndSourceAlpha() throws {
        // Black source alpha moved by 4, merged under the red source: black at (12, 12) only.
        let s = try render(svg("""
            <filter id='f' x='0' y='0' width='2' height='2'>
              <feOffset in='SourceAlpha' dx='4' dy='4' result='shadow'/>
              <feMerge><feMergeNode in='shadow'/><feMergeNode in='SourceGraphic'/></feMerge>
            </filter>
            <rect width='10' height='10' fill='red' filter='url(#f)'/>
            """))
        #expect(s.pixel(x: 5, y: 5) == RGBA8(255, 0, 0, 255))
        #expect(s.pixel(x: 12, y: 12) == RGBA8(0, 0, 0, 255))
        #expect(s.pixel(x: 15, y: 15).a == 0)
    }

    @Test func lengthsFollowTheElementsScale() throws {
        // Under scale(2), dx = 3 user units moves 6 device pixels.
        let list = try displayList(svg("<filter id='f'><feOffset dx='3'/></filter><rect width='5' height='5' transform='scale(2)' filter='url(#f)'/>"))
        guard case .filter(let graph, _)? = isolations(list.items).first else {
            Issue.record("no filter group in \(list)")
            return
        }
        #expect(graph.primitives.first?.kind == .offset(dx: 6, dy: 0))
        // The region: (−0.5, −0.5, 6, 6) user units × 2.
        #expect(graph.region == CGRect(x: -1, y: -1, width: 12, height: 12))
    }

    @Test func colorInterpolationFiltersDefaultsToLinear() throws {
        let list = try displayList(svg("""
            <filter id='f'><feFlood/><feOffset color-interpolation-filters='sRGB'/></filter>
            <rect width='5' height='5' filter='url(#f)'/>
            """))
        guard case .filter(let graph, _)? = isolations(list.items).first else {
            Issue.record("no filter group")
            return
        }
        #expect(graph.primitives.map(\.linearRGB) == [true, false])
    }

    @Test func filterOnAnEmptyGroupWithARegionInUserUnits() throws {
        let s = try render(svg("<filter id='f' filterUnits='userSpaceOnUse' x='2' y='2' width='4' height='4'><feFlood flood-color='red'/></filter><g filter='url(#f)'/>"))
        #expect(s.pixel(x: 3, y: 3) == RGBA8(255, 0, 0, 255))
        #expect(s.pixel(x: 7, y: 3).a == 0)
    }

    @Test func unsupportedPrimitivesWarnAndGiveTransparency() throws {
        let doc = try document(svg("<filter id='f'><feTurbulence/></filter><rect width='5' height='5' filter='url(#f)'/>"))
        #expect(doc.warnings.contains { $0.message.contains("<feTurbulence> is not supported") })
    }

    @Test func hrefInheritsAttributesAndPrimitives() throws {
        // filter2 takes filter1's flood and its userSpaceOnUse region (0, 0, 4, 4).
        let s = try render(svg("""
            <filter id='f1' filterUnits='userSpaceOnUse' x='0' y='0' width='4' height='4'><feFlood flood-color='red'/></filter>
            <filter id='f2' href='#f1'/>
            <rect x='8' y='8' width='5' height='5' filter='url(#f2)'/>
            """))
        #expect(s.pixel(x: 1, y: 1) == RGBA8(255, 0, 0, 255))
        #expect(s.pixel(x: 10, y: 10).a == 0)
    }

    @Test func explainNamesTheFilter() throws {
        let doc = try document(svg("<filter id='f'><feGaussianBlur stdDeviation='1'/></filter><rect width='5' height='5' filter='url(#f)'/>"))
        let e = try Renderer().explain(Image(drawing: doc).resizable(), size: doc.size)
        func nodes(_ n: [Explanation.Node]) -> [Explanation.Node] { n + n.flatMap { nodes($0.children) } }
        let filter = nodes(e.tree).first { $0.kind == "filter" }
        #expect(filter?.summary.contains("feGaussianBlur") == true)
        #expect(e.images.contains { $0.kind == .filter })
    }
}

/// XML that Foundation's parser cannot take safely is refused before it sees it.
struct XMLInputTests {
    @Test func bytesThatAreNotUTF8AreALocatedError() {
        // "sv\u{F4}g" in Latin-1, undeclared: XMLParser would trap on the element name.
        var data = Data("<svg xmlns='http://www.w3.org/2000/svg'>\n  <sv".utf8)
        data.append(0xF4)
        data.append(contentsOf: Array("g/></svg>".utf8))
        #expect(throws: SVGError.malformedXML("t.svg", line: 2, column: 6, reason: "the bytes are not UTF-8 and no other encoding is declared")) {
            try SVGDocument(data: data, name: "t.svg")
        }
    }

    @Test func aDeclaredEncodingIsConverted() throws {
        var data = Data("<?xml version='1.0' encoding='ISO-8859-1'?><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><title>caf".utf8)
        data.append(0xE9)
        data.append(contentsOf: Array("</title><rect width='4' height='4'/></svg>".utf8))
        let doc = try SVGDocument(data: data, name: "t.svg")
        #expect(doc.size == CGSize(width: 4, height: 4))
    }

    @Test func utf8ValidationFollowsTheStandard() {
        #expect(XMLTree.firstInvalidUTF8(Data("héllo ✓ 😀".utf8)) == nil)
        #expect(XMLTree.firstInvalidUTF8(Data([0x61, 0xC0, 0x80])) == 1)        // overlong
        #expect(XMLTree.firstInvalidUTF8(Data([0xED, 0xA0, 0x80])) == 0)        // surrogate
        #expect(XMLTree.firstInvalidUTF8(Data([0x61, 0xE2, 0x82])) == 1)        // cut short
        #expect(XMLTree.firstInvalidUTF8(Data([0xFF, 0xFE, 0x3C, 0x00])) == nil) // UTF-16 BOM
    }
}

/// Processing instructions, which crash Foundation's parser when they carry no data.
struct ProcessingInstructionTests {
    @Test func instructionsWithoutDataAreBlankedOut() throws {
        for text in ["<?xml version='1.0'?>\n<?xml-stylesheet?><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>",
                     "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><?pi?><rect width='4' height='4'/></svg>"] {
            let doc = try SVGDocument(data: Data(text.utf8), name: "t.svg")
            #expect(doc.size == CGSize(width: 4, height: 4))
        }
    }

    @Test func aDeclarationWithoutAVersionIsAnError() {
        #expect(throws: SVGError.malformedXML("t.svg", line: 1, column: 1, reason: "the XML declaration has no version")) {
            try SVGDocument(data: Data("<?xml?><svg xmlns='http://www.w3.org/2000/svg'/>".utf8), name: "t.svg")
        }
    }

    @Test func linesStayWhereTheyWere() throws {
        // An error after a blanked instruction still names its own line (3).
        #expect(throws: SVGError.self) { try SVGDocument(data: Data("<svg><?a\n?>\n<g></svg>".utf8), name: "t.svg") }
        do {
            _ = try SVGDocument(data: Data("<svg><?a\n?>\n<g></svg>".utf8), name: "t.svg")
        } catch {
            guard case let .malformedXML(_, line, _, _) = error else { Issue.record("\(error)"); return }
            #expect(line == 3)
        }
    }
}

/// A clip path or mask that refers back to itself: the looping reference is dropped (the
/// element keeps the rest), as resvg reads it.
struct MaskingLoopTests {
    @Test func aClipPathClippedByItselfStillClips() throws {
        // clip1 clips itself: that reference is ignored, so the rect is clipped to (0, 0, 10, 10).
        let body = "<clipPath id='c' clip-path='url(#c)'><rect width='10' height='10'/></clipPath><rect width='20' height='20' fill='red' clip-path='url(#c)'/>"
        let s = try render(svg(body))
        #expect(s.pixel(x: 5, y: 5) == RGBA8(255, 0, 0, 255))
        #expect(s.pixel(x: 15, y: 15).a == 0)
        #expect(try document(svg(body)).warnings.contains { $0.message.contains("clipped by itself") })
    }

    @Test func aMaskWhoseContentUsesTheMaskKeepsItsContent() throws {
        // The mask's white rect refers to the mask again: ignored, so the mask is the white
        // rect (luminance 1) over (0, 0, 10, 20).
        let s = try render(svg("""
            <mask id='m' maskUnits='userSpaceOnUse' x='0' y='0' width='20' height='20'><rect width='10' height='20' fill='white' mask='url(#m)'/></mask>
            <rect width='20' height='20' fill='blue' mask='url(#m)'/>
            """))
        #expect(s.pixel(x: 5, y: 5) == RGBA8(0, 0, 255, 255))
        #expect(s.pixel(x: 15, y: 5).a == 0)
    }
}
