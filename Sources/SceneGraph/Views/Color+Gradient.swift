import Foundation

extension Color {
    /// A subtle top-to-bottom gradient made from this colour (SwiftUI's `Color.gradient`). Apple
    /// does not specify it; this engine goes from the colour mixed 20 % towards white (in sRGB
    /// encoding, alpha kept) at the top to the colour itself at the bottom.
    public var gradient: LinearGradient {
        let lighter = Color(red: red + (1 - red) * 0.2, green: green + (1 - green) * 0.2, blue: blue + (1 - blue) * 0.2,
                            opacity: alpha)
        return LinearGradient(colors: [lighter, self], startPoint: .top, endPoint: .bottom)
    }
}
