import Courier
import Foundation
import HTTPTypes

/// The listings of the DocC articles on capabilities (pagination, envelopes, cancelling by type, body formats,
/// uploads, downloads, secrets), compiled. `DocCListingTests` checks that every listing in the catalog is one of
/// these regions.
enum EnvelopesListings {
    struct Article: Decodable, Sendable { let title: String }

    static func articles(url: URL) async throws -> [Article] {
        // BEGIN DOCC: success flag envelope
        let client = APIClient(baseURL: url) { $0.envelope = .successFlag }  // {"success","error","response"}
        let articles = try await client.send(APIRequest<[Article]>.get("/articles"))
        // END DOCC: success flag envelope
        return articles
    }

    // BEGIN DOCC: custom envelope
    struct FlickrStat: ResponseEnvelope {
        struct Status: Decodable {
            let stat: String
            let code: Int?
            let message: String?
        }

        func unwrap<T: Decodable>(_ type: T.Type, from body: Data, using decoder: any ResponseBodyDecoder) throws -> T {
            let status = try decoder.decode(Status.self, from: body)
            guard status.stat == "ok" else {
                throw EnvelopeFailure(code: status.code.map(String.init), message: status.message ?? "failed")
            }
            return try decoder.decode(T.self, from: body)
        }
    }
    // END DOCC: custom envelope
}

enum CancellingByTypeListings {
    struct Repository: Decodable, Sendable { let name: String }

    // BEGIN DOCC: cancellable endpoint
    struct GetRepository: Endpoint, CancellableByType {
        typealias Response = Repository
        let owner: String
        let name: String
        var path: RoutePath { "/repos/\(owner)/\(name)" }
    }
    // END DOCC: cancellable endpoint

    static func cancel(client: APIClient, owner: String) {
        // BEGIN DOCC: cancel all
        client.cancelAll(GetRepository.self)  // all of them
        client.cancelAll(GetRepository.self) { $0.owner == owner }  // some of them
        // END DOCC: cancel all
    }
}

enum UploadsListings {
    struct Receipt: Decodable, Sendable { let id: String }

    static func upload(photoURL: URL, client: APIClient) async throws -> Receipt {
        // BEGIN DOCC: multipart upload
        var form = MultipartFormData()
        form.append("holidays", name: "album")
        try form.appendFile(at: photoURL, name: "photo", contentType: "image/jpeg")  // streamed from disk
        let body = RequestBody.multipart(form).reportingProgress { print($0.completedBytes) }
        let receipt = try await client.send(APIRequest<Receipt>.post("/uploads", body: body))
        // END DOCC: multipart upload
        return receipt
    }

    static func fileBody(client: APIClient, archive: URL) async throws {
        // BEGIN DOCC: file body
        let upload = APIRequest<Void>.put("/v1/backups/latest", body: .file(archive, contentType: "application/gzip"))
        try await client.send(upload)
        // END DOCC: file body
    }
}

enum DownloadsListings {
    static func download(client: APIClient, destination: URL) async throws -> URL {
        // BEGIN DOCC: download
        let response = try await client.download(APIRequest<Void>.get("/exports/2026.csv"), to: destination) {
            progress in print(progress.fractionCompleted ?? 0)
        }
        // END DOCC: download
        return response.value
    }

    static func resume(_ file: APIRequest<Void>, client: APIClient, destination: URL) async throws {
        // BEGIN DOCC: resume download
        do {
            _ = try await client.download(file, to: destination)
        } catch let error where error.resumeData != nil {  // error is an APIError here
            _ = try await client.download(file, to: destination, resumingFrom: error.resumeData)
        }
        // END DOCC: resume download
    }
}

enum ManagingSecretsListings {
    static func client(url: URL, jsonURL: URL, plistURL: URL) throws -> APIClient {
        // BEGIN DOCC: secrets
        let secrets = Secrets([.environment(prefix: "COURIER_"), .jsonFile(jsonURL), .propertyList(plistURL)])
        let key = try secrets["GOOGLE_API_KEY"]
        let client = APIClient(baseURL: url) { $0.defaultQuery["key"] = .string(key.value) }
        // END DOCC: secrets
        return client
    }
}
