import Courier
import Foundation
import Testing

/// Memory bounds of streamed transfers. Resident memory is a property of the whole process, so these run
/// in a `swift test` of their own, with nothing else running: `scripts/test` skips them in the main run
/// and then runs them alone. (Run directly: `swift test --filter StreamingMemoryTests`.)
@Suite(.serialized, .timeLimit(.minutes(2))) struct StreamingMemoryTests {
    static var runAlone: Bool { ProcessInfo.processInfo.environment["COURIER_MEMORY_TESTS"] == "1" }

    @Test(.enabled(if: runAlone, "run by scripts/test on their own"))
    func a200MiBMultipartUploadStreamsWithBoundedMemory() async throws {
        let growth = try await MultipartTests.uploadTwoHundredMebibytes()
        print(
            "200 MiB multipart upload (client and in-process server): resident memory grew \(growth / 1024 / 1024) MiB")
        #expect(growth < 64 * 1024 * 1024, "memory grew by \(growth / 1024 / 1024) MiB while streaming 200 MiB")
    }
}
