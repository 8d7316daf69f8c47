import Foundation
import Compositor
import SceneGraph
@testable import SVG

/// A document from SVG text.
func document(_ svg: String, options: SVGDocument.Options = SVGDocument.Options()) throws -> SVGDocument {
    try SVGDocument(data: Data(svg.utf8), name: "test.svg", options: options)
}

/// The document rendered at its own size on a transparent canvas.
func render(_ svg: String, scale: Double = 1) throws -> Surface {
    let doc = try document(svg)
    return try Renderer().render(Image(drawing: doc).resizable(), size: doc.size, scale: scale, background: nil)
}

/// The document's display list at its own size.
func displayList(_ svg: String) throws -> DisplayList {
    let doc = try document(svg)
    return try Renderer().displayList(for: Image(drawing: doc).resizable(), size: doc.size)
}

/// Every group isolation in `items`, depth first.
func isolations(_ items: [DisplayItem]) -> [DisplayItem.Isolation] {
    items.flatMap { item -> [DisplayItem.Isolation] in
        guard case .group(let g) = item else { return [] }
        return [g.isolation] + isolations(g.children)
    }
}

/// An `svg` element of `size` × `size` user units holding `body`.
func svg(_ body: String, size: Int = 20) -> String {
    "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='\(size)' height='\(size)'>\(body)</svg>"
}
