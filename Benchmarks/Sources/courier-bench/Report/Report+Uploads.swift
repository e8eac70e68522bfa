import Foundation

extension Report {
    /// The uploads: peak RSS, throughput and CPU per client (medians), and each Courier client's throughput
    /// and user CPU over raw AsyncHTTPClient's, paired by round.
    func uploadTable() -> [String] {
        let megabytes = uploads.first.map { $0.bytes / 1_048_576 } ?? 0
        var lines = [
            "## \(megabytes) MiB upload streamed from a file (a fresh process per run, clients interleaved)",
            "",
            "Each run PUTs a sparse file, read 64 KiB at a time: raw AsyncHTTPClient as a `.stream` body of "
                + "`ByteBuffer`s, Courier as the whole body (`RequestBody.file`: like for like) or as a multipart "
                + "form (`MultipartFormData.appendFile`, a few hundred bytes of framing more). nginx (WebDAV `PUT`) writes the body to a file (on tmpfs where there is one) "
                + "and answers only once it has read all of it. Peak RSS is `VmHWM` after the upload, the highest "
                + "over the runs (target for Courier + HTTPClientTransport sending the file ≤ 40 MiB). CPU is the whole client "
                + "process's during the upload (`getrusage`); Courier's own work is in the user time, while the "
                + "system time (reading the file, loopback TCP) is most of it and varies most. Ratios are each "
                + "run's over raw's in the same round: the median, and the lowest and highest (target ≥ 0.95× the "
                + "throughput).",
            "",
            "| client | runs | peak RSS MiB | RSS before MiB | MiB/s (median) | MiB/s range | MiB/s / raw "
                + "| user CPU s/GiB | user CPU / raw | system CPU s/GiB |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for (client, runs) in uploads.byClient {
            let isRaw = client == .rawAHC
            lines.append(
                row(
                    [client.title] + runs.sharedColumns + [
                        isRaw ? "" : pairedWithRaw(runs, \.mebibytesPerSecond),
                        String(format: "%.2f", median(runs.map(\.userCPUPerGibibyte))),
                        isRaw ? "" : pairedWithRaw(runs, \.userCPUPerGibibyte),
                        String(format: "%.2f", median(runs.map(\.systemCPUPerGibibyte))),
                    ]))
        }
        return lines
    }

    /// `metric` of `runs` over raw AsyncHTTPClient's in the same round: the median (lowest–highest).
    private func pairedWithRaw(_ runs: [UploadResult], _ metric: (UploadResult) -> Double) -> String {
        let raw = uploads.filter { $0.client == .rawAHC && $0.round != nil }
        let ratios = runs.compactMap { run -> Double? in
            guard let round = run.round, let base = raw.first(where: { $0.round == round }), metric(base) > 0
            else { return nil }
            return metric(run) / metric(base)
        }
        guard let low = ratios.min(), let high = ratios.max() else { return "n/a" }
        guard ratios.count > 1 else { return String(format: "%.2f×", low) }
        return String(format: "%.2f× (%.2f–%.2f)", median(ratios), low, high)
    }
}
