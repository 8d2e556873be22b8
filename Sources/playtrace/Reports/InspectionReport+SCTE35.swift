import PlaytraceCore
import PlaytraceHLS

extension InspectionReport {
    /// A SCTE-35 message as data: what `--json` gives for each one (the text report prints ``summary``).
    struct SCTE35Report: Codable {
        /// The message as one line for people.
        var summary: String
        /// The message as it was written (hex or base64), when the playlist gave it as text.
        var encoded: String?
        /// `splice_insert`, `time_signal`…
        var command: String?
        var commandType: Int?
        var eventID: UInt32?
        var outOfNetwork: Bool?
        var cancelled: Bool?
        /// The splice time with pts_adjustment applied, in 90 kHz ticks and in seconds.
        var ptsTicks: UInt64?
        var ptsSeconds: Double?
        /// The command's pts_time as written, and the section's pts_adjustment, in 90 kHz ticks.
        var ptsTimeTicks: UInt64?
        var ptsAdjustmentTicks: UInt64?
        var breakDurationTicks: UInt64?
        var breakDurationSeconds: Double?
        var autoReturn: Bool?
        var segmentation: [Segmentation] = []
        /// `valid` when the message decoded (its CRC-32 matched), absent otherwise.
        var crc: String?
        /// Why the message could not be decoded.
        var error: String?

        struct Segmentation: Codable {
            var eventID: UInt32
            var typeID: Int
            var typeName: String
            var upidType: Int?
            var upid: String
            var durationTicks: UInt64?
            var durationSeconds: Double?
            var segmentNumber: Int
            var segmentsExpected: Int
        }

        init(summary: String, encoded: String?, error: String?) {
            self.summary = summary
            self.encoded = encoded
            self.error = error
        }

        init(encoded: String) {
            do {
                self.init(try SpliceInfoSection(encoded: encoded), encoded: encoded)
            } catch {
                self.init(summary: "undecodable: \(error)", encoded: encoded, error: "\(error)")
            }
        }

        init(_ section: SpliceInfoSection, encoded: String?) {
            self.encoded = encoded
            summary = InspectionReport.describe(section)
            command = section.command.name
            commandType = Self.commandType(section.command)
            crc = "valid"
            ptsTimeTicks = section.ptsTime
            ptsAdjustmentTicks = section.ptsAdjustment
            if let time = section.adjustedSpliceTime {
                ptsSeconds = time.seconds
                ptsTicks = UInt64((time.seconds * 90_000).rounded())
            }
            if case .spliceInsert(let insert) = section.command {
                eventID = insert.eventID
                outOfNetwork = insert.isOutOfNetwork
                cancelled = insert.isCancelled
                if let duration = insert.breakDuration {
                    breakDurationTicks = duration.duration
                    breakDurationSeconds = duration.seconds
                    autoReturn = duration.autoReturn
                }
            }
            segmentation = section.segmentationDescriptors.map { descriptor in
                Segmentation(
                    eventID: descriptor.eventID, typeID: Int(descriptor.typeID), typeName: descriptor.typeName,
                    upidType: Self.upidType(descriptor.upid), upid: descriptor.upid.description,
                    durationTicks: descriptor.duration, durationSeconds: descriptor.durationSeconds,
                    segmentNumber: Int(descriptor.segmentNumber), segmentsExpected: Int(descriptor.segmentsExpected))
            }
        }

        private static func commandType(_ command: SpliceCommand) -> Int {
            switch command {
            case .null: 0x00
            case .schedule: 0x04
            case .spliceInsert: 0x05
            case .timeSignal: 0x06
            case .bandwidthReservation: 0x07
            case .privateCommand: 0xFF
            case .encrypted(let type), .unknown(let type, _): Int(type)
            }
        }

        private static func upidType(_ upid: SegmentationUPID) -> Int? {
            switch upid {
            case .none: 0
            case .text(let type, _), .binary(let type, _): Int(type)
            case .multiple: 0x0D
            }
        }
    }
}
