import CourierDemoServer
import Hummingbird
import Synchronization

/// `GET /arrivals?tag=T` → `{"arrived": n}`: how many tagged requests reached the point their route notes
/// (`/slow?tag=T` on arrival, `/drip?tag=T` once its head and first chunk are written), so that a test acts
/// once its request is there instead of guessing how long that takes.
enum ArrivalRoute {
    private static let counts = Mutex<[String: Int]>([:])

    /// Counts one arrival under `tag`, if the request has one.
    static func note(_ tag: String?) {
        guard let tag else { return }
        counts.withLock { $0[tag, default: 0] += 1 }
    }

    static func add(to router: Router<DemoContext>) {
        router.get("/arrivals") { request, _ in
            let tag = QueryItems(request)["tag"] ?? ""
            return try DemoResponses.json(Arrived(arrived: counts.withLock { $0[tag] ?? 0 }))
        }
    }

    /// The body of a `/arrivals` response.
    struct Arrived: Encodable {
        let arrived: Int
    }
}
