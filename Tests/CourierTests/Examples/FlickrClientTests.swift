import Courier
import CourierDemoServer
import CourierExamples
import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(1))) struct FlickrClientTests {
    @Test(arguments: ExampleBackend.active) func interestingPhotosWithDatesAndURLs(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let flickr = FlickrClient(baseURL: base, apiKey: Secret(DemoCredentials.flickrAPIKey), transport: transport)
            let page = try await flickr.photos(.interestingPhotos, perPage: 10)
            #expect(page.page == 1)
            #expect(page.photo.count == 10)
            #expect(page.photo.allSatisfy { $0.dateTaken != nil })
            #expect(page.photo.contains { $0.largeURL != nil })
            let withoutExtras = try await flickr.photos(.recentPhotos, extras: [], perPage: 5)
            #expect(withoutExtras.photo.allSatisfy { $0.dateTaken == nil && $0.largeURL == nil })
        }
    }

    @Test(arguments: ExampleBackend.active) func statFailIsALogicalErrorWithFlickrsCode(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let error = await #expect(throws: APIError.self) {
                try await FlickrClient(baseURL: base, apiKey: Secret("WRONG-FLICKR-KEY"), transport: transport).photos(
                    .recentPhotos)
            }
            #expect(error?.kind == .logicalError)
            #expect(error?.status == .ok)
            #expect(error?.errorBody(as: FlickrFailure.self)?.code == 100)
            #expect(error?.description.contains("WRONG-FLICKR-KEY") == false)
        }
    }
}
