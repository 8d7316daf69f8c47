import Foundation

/// A value a view owns (SwiftUI's `@State`): it keeps its value across the view's bodies, and
/// the view's closures (a `Button`'s action) change it in place, as in SwiftUI, where the
/// setter does not mutate the view. Here nothing re-renders by itself when it changes: render
/// again, or let `AnimatedChange(pressing:in:)` press a button and animate the change.
///
/// ```swift
/// struct Toggle: View {
///     @State private var isOn = false
///     var body: some View {
///         Button(isOn ? "On" : "Off") { withAnimation { isOn.toggle() } }
///     }
/// }
/// ```
@propertyWrapper
public struct State<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    public init(wrappedValue value: Value) {
        storage = Locked(value)
    }
    public init(initialValue value: Value) {
        self.init(wrappedValue: value)
    }

    public var wrappedValue: Value {
        get { storage.withLock { $0 } }
        nonmutating set { storage.withLock { $0 = newValue } }
    }

    /// A binding to the value, for a child view that changes it.
    public var projectedValue: Binding<Value> {
        Binding(get: { storage.withLock { $0 } }, set: { value in storage.withLock { $0 = value } })
    }
}

/// Read and write access to a value owned elsewhere (SwiftUI's `Binding`).
@propertyWrapper
public struct Binding<Value>: Sendable {
    private let get: @Sendable () -> Value
    private let set: @Sendable (Value) -> Void

    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// A binding that always reads `value` and ignores writes.
    public static func constant(_ value: Value) -> Binding<Value> where Value: Sendable {
        Binding(get: { value }, set: { _ in })
    }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    public var projectedValue: Binding<Value> { self }
}

/// Runs `body`, whose state changes the next frame animates with `animation` (SwiftUI's
/// `withAnimation`). Here, inside an action that `AnimatedChange(pressing:in:)` runs, the
/// animation becomes the change's; anywhere else the body simply runs.
@discardableResult
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    ActionRecorder.current?.animation.withLock { $0 = animation ?? $0 }
    return try body()
}

/// A control that runs an action when pressed (SwiftUI's `Button`), drawn in the default style:
/// its label in the accent colour (the tint). Rendering never presses it;
/// `AnimatedChange(pressing:in:)` does.
public struct Button<Label: View>: View, PrimitiveView, Sendable {
    let label: ViewNode

    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.label = resolve(label())
        ActionRecorder.current?.record(title: ActionRecorder.title(of: self.label), action: action)
    }

    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        .modified(.meta(.environment(.foregroundStyle(TintShapeStyle()))), label)
    }
}

extension Button where Label == Text {
    /// A button whose label is `title`.
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

extension AnimatedChange {
    /// The change that pressing the button titled `title` in `view` makes: the view before and
    /// after its action runs, animated as the action's `withAnimation` says (without one, the
    /// change is immediate, as in SwiftUI).
    ///
    /// ```swift
    /// let change = try AnimatedChange(pressing: "Cambiar estado", in: DownloadExample())
    /// ```
    /// - Throws: `ButtonError.noSuchButton` when no button in the view has that title.
    public init<V: View>(pressing title: String, in view: V) throws {
        let recorder = ActionRecorder()
        let before = ActionRecorder.$current.withValue(recorder) { resolve(view) }
        guard let action = recorder.actions.withLock({ $0.first { $0.title == title }?.action }) else {
            throw ButtonError.noSuchButton(title, known: recorder.actions.withLock { $0.map(\.title) })
        }
        ActionRecorder.$current.withValue(recorder) { action() }
        let animation = recorder.animation.withLock { $0 }
        self.init(from: AnyView(node: before), to: AnyView(node: resolve(view)), animation: animation ?? .linear(duration: 0))
    }
}

public enum ButtonError: Error, CustomStringConvertible, Equatable {
    case noSuchButton(String, known: [String])
    public var description: String {
        switch self {
        case let .noSuchButton(title, known):
            "no button titled '\(title)' in the view" + (known.isEmpty ? " (it has no buttons)" : "; its buttons: " + known.map { "'\($0)'" }.joined(separator: ", "))
        }
    }
}

/// What the buttons of a view being resolved would do, collected for `AnimatedChange(pressing:)`.
final class ActionRecorder: Sendable {
    @TaskLocal static var current: ActionRecorder?

    struct Entry: @unchecked Sendable {
        // The action runs on the thread that asked for the change, once, while it waits.
        var title: String
        var action: () -> Void
    }

    let actions = Locked<[Entry]>([])
    let animation = Locked<Animation?>(nil)

    func record(title: String, action: @escaping () -> Void) {
        actions.withLock { $0.append(Entry(title: title, action: action)) }
    }

    /// A label's text (its Texts joined), what identifies a button.
    static func title(of node: ViewNode) -> String {
        switch node {
        case .leaf(.text(let text)): text.segments.map(\.string).joined()
        case .leaf(.label(_, let title)): self.title(of: title)
        case .leaf: ""
        case .container(let c): c.children.map(title(of:)).filter { !$0.isEmpty }.joined(separator: " ")
        case .modified(_, let content): title(of: content)
        }
    }
}
