import Foundation

/// What the report says about the machine it ran on.
enum MachineInfo {
    /// `model name` from `/proc/cpuinfo`.
    static var cpuModel: String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    static var summary: String {
        let process = ProcessInfo.processInfo
        let memory = Double(process.physicalMemory) / 1_073_741_824
        return String(
            format: "%@, %d cores (nproc), %.0f GiB RAM, %@", cpuModel, process.activeProcessorCount, memory,
            process.operatingSystemVersionString)
    }
}
