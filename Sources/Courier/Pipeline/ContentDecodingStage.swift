import HTTPTypes
import OpenAPIRuntime

/// After the last hop: the body decoded as it streams when `Content-Encoding` names gzip or deflate (Courier
/// asks for both on the wire head, see ``Pipeline/network(_:)``), the same on every transport, and its
/// decoded bytes counted against the body limit (see ``DecodedChunks``).
extension APIClient {
    /// `delivery` with its body decoded, and `Content-Encoding` and `Content-Length` (which describe the
    /// encoded bytes) removed from the head. A coding Courier can't decode is
    /// ``APIError/Kind/contentDecoding``, never bytes handed to a decoder as they are.
    func decodingContent(_ delivery: Delivery) async throws(APIError) -> Delivery {
        guard let encoded = delivery.body, let found = ContentCoding.of(delivery.response) else { return delivery }
        switch found {
        case .failure(let failure):
            await ResponseBody.discard(encoded)
            throw failureContext(for: delivery).error(
                .contentDecoding, phase: .receiving, message: failure.description, response: delivery.response)
        case .success(let coding) where delivery.response.status == .partialContent:
            await ResponseBody.discard(encoded)
            throw failureContext(for: delivery).error(
                .contentDecoding, phase: .receiving,
                message: "a partial (206) response encoded as \(coding.rawValue) can't be decoded on its own",
                response: delivery.response)
        case .success(let coding):
            var response = delivery.response
            response.headerFields[.contentEncoding] = nil
            response.headerFields[.contentLength] = nil
            let body = HTTPBody(
                DecodedChunks(base: encoded.httpBody, coding: coding), length: .unknown, iterationBehavior: .single)
            return Delivery(
                request: delivery.request, response: response, body: ResponseBody(body), attempts: delivery.attempts,
                trail: delivery.trail, decodedCoding: coding, source: delivery.source)
        }
    }
}
