public import Foundation

/// What a device shows its user in the device authorization grant (RFC 8628 §3.2): a code to enter at a page
/// on another device (a phone, a laptop).
///
/// The device code the client polls with is a secret and is not part of it.
public struct OAuth2DeviceAuthorization: Sendable, CustomStringConvertible {
    /// The code the user enters.
    public let userCode: String
    /// Where the user enters it; `nil` when the server did not say (RFC 8628 requires it; some servers are
    /// configured without one).
    public let verificationURI: URL?
    /// The page with the code already filled in, for a QR code or a link, when the server offers one.
    public let verificationURIComplete: URL?
    /// When the codes expire: the user must approve before.
    public let expiresAt: Date
    /// How long the client waits between polls, as the server asked (5 s when it did not).
    public let interval: Duration
    /// The device code, sent with every poll.
    let deviceCode: String

    /// "Enter ABCD-EFGH at https://example.com/device".
    public var description: String {
        "Enter \(userCode) at \(verificationURI?.absoluteString ?? "the provider's device page")"
    }
}

extension OAuth2Client {
    /// The device authorization grant (RFC 8628): for a command-line tool, a TV or anything else without a
    /// browser. Asks for a user code, has `show` present it (print it, draw a QR code of
    /// ``OAuth2DeviceAuthorization/verificationURIComplete``), then polls the token endpoint until the user
    /// approves or declines or the codes expire.
    ///
    /// Polls wait ``OAuth2DeviceAuthorization/interval`` on the client's clock, 5 s longer after each
    /// `slow_down`. A declined sign-in is the server's `access_denied` (as ``APIError/errorBody``); codes that
    /// expire first end in ``APIError/Kind/timedOut``; cancelling the task stops polling.
    public func deviceAuthorization(
        scope: [String], show: @Sendable (OAuth2DeviceAuthorization) async throws -> Void
    ) async throws(APIError) -> OAuth2Token {
        let grant = "device authorization grant"
        guard let endpoint = provider.deviceAuthorizationEndpoint else {
            throw APIError(
                .invalidRequest, phase: .building,
                message: "OAuth 2.0 \(grant): the provider has no device authorization endpoint")
        }
        var fields: Query = [:]
        if !scope.isEmpty { fields.append("scope", scope.joined(separator: " ")) }
        let startedAt = time.now
        let startedDate = time.date
        let answer = try await send(
            FormPost<DeviceAuthorizationResponse>(
                url: endpoint, fields: fields, registration: provider.client, operation: "device authorization"))
        let lifetime = Duration.seconds(answer.expiresIn)
        let authorization = OAuth2DeviceAuthorization(
            userCode: answer.userCode, verificationURI: answer.verificationURI.flatMap(URL.init(string:)),
            verificationURIComplete: answer.verificationURIComplete.flatMap(URL.init(string:)),
            expiresAt: startedDate.addingTimeInterval(answer.expiresIn), interval: .seconds(answer.interval ?? 5),
            deviceCode: answer.deviceCode)
        do {
            try await show(authorization)
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0 \(grant): showing the user code failed")
        }
        let poll: Query = [
            "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": authorization.deviceCode,
        ]
        var interval = authorization.interval
        while true {
            do {
                try await time.sleep(for: interval)
            } catch {
                throw APIError(.cancelled, phase: .sending, message: "OAuth 2.0 \(grant) was cancelled while polling")
            }
            guard time.now - startedAt < lifetime else {
                throw APIError(
                    .timedOut, phase: .sending,
                    message: "OAuth 2.0 \(grant): the user did not approve within \(lifetime) (the codes expired)")
            }
            do {
                return try await requestToken(
                    grant: grant, fields: poll, scope: scope, secrets: [authorization.deviceCode])
            } catch {
                switch error.errorBody(as: OAuth2ErrorResponse.self)?.error {
                case "authorization_pending": continue
                case "slow_down": interval += .seconds(5)
                default: throw error
                }
            }
        }
    }
}

/// A device authorization endpoint's answer (RFC 8628 §3.2).
struct DeviceAuthorizationResponse: Decodable, Sendable {
    let deviceCode: String
    let userCode: String
    let verificationURI: String?
    let verificationURIComplete: String?
    let expiresIn: Double
    let interval: Double?

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }
}
