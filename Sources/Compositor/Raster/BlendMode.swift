import CPixman

/// How a source combines with what lies behind it: SwiftUI's `BlendMode`, case for case.
/// Each maps to a pixman operator except `plusDarker`, which pixman lacks and this module
/// implements itself.
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case sourceAtop, destinationOver, destinationOut, plusDarker, plusLighter

    /// pixman's operator; `nil` for `plusDarker`.
    var pixmanOperator: pixman_op_t? {
        switch self {
        case .normal: PIXMAN_OP_OVER
        case .multiply: PIXMAN_OP_MULTIPLY
        case .screen: PIXMAN_OP_SCREEN
        case .overlay: PIXMAN_OP_OVERLAY
        case .darken: PIXMAN_OP_DARKEN
        case .lighten: PIXMAN_OP_LIGHTEN
        case .colorDodge: PIXMAN_OP_COLOR_DODGE
        case .colorBurn: PIXMAN_OP_COLOR_BURN
        case .softLight: PIXMAN_OP_SOFT_LIGHT
        case .hardLight: PIXMAN_OP_HARD_LIGHT
        case .difference: PIXMAN_OP_DIFFERENCE
        case .exclusion: PIXMAN_OP_EXCLUSION
        case .hue: PIXMAN_OP_HSL_HUE
        case .saturation: PIXMAN_OP_HSL_SATURATION
        case .color: PIXMAN_OP_HSL_COLOR
        case .luminosity: PIXMAN_OP_HSL_LUMINOSITY
        case .sourceAtop: PIXMAN_OP_ATOP
        case .destinationOver: PIXMAN_OP_OVER_REVERSE
        case .destinationOut: PIXMAN_OP_OUT_REVERSE
        case .plusLighter: PIXMAN_OP_ADD
        case .plusDarker: nil
        }
    }

    /// Modes that must see the source with coverage already multiplied in: pixman 0.42 applies
    /// a mask wrongly with the non-separable (HSL) operators, and `plusDarker` is ours.
    var needsPremaskedSource: Bool {
        switch self {
        case .hue, .saturation, .color, .luminosity, .plusDarker: true
        default: false
        }
    }
}
