// SwiftUI-style code needs `Path`, `Angle`, `Color`, `CGAffineTransform` … from Compositor as
// well: re-export it, so that such code compiles with `import SceneGraph` alone.
@_exported import Compositor
@_exported import Foundation
@_exported import Typography
