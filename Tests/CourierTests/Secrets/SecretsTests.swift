import Courier
import Foundation
import Testing

@Suite struct SecretsTests {
    static let value = "sk-SUPER-SECRET-1234567890"

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "courier-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func environmentJSONAndPropertyListSourcesInOrder() throws {
        let folder = try folder()
        let json = folder.appending(path: "secrets.json")
        try Data(#"{"FROM_JSON": "j-value", "SHARED": "json-wins"}"#.utf8).write(to: json)
        let plist = folder.appending(path: "Secrets.plist")
        try PropertyListEncoder().encode(["FROM_PLIST": "p-value", "SHARED": "plist-loses"]).write(to: plist)
        let secrets = Secrets([
            .environment(prefix: "APP_", ["APP_FROM_ENV": "e-value", "APP_EMPTY": ""]),
            .jsonFile(json), .propertyList(plist),
        ])
        #expect(try secrets["FROM_ENV"].value == "e-value")
        #expect(try secrets["FROM_JSON"].value == "j-value")
        #expect(try secrets["FROM_PLIST"].value == "p-value")
        #expect(try secrets["SHARED"].value == "json-wins")
        #expect(throws: SecretsError.self) { try secrets["EMPTY"] }
    }

    @Test func aMissingSecretNamesTheKeyAndEveryPlaceLooked() throws {
        let folder = try folder()
        let json = folder.appending(path: "none.json")
        let plist = folder.appending(path: "Secrets.plist")
        let secrets = Secrets([.environment(prefix: "APP_", [:]), .jsonFile(json), .propertyList(plist)])
        let error = #expect(throws: SecretsError.self) { try secrets["GOOGLE_API_KEY"] }
        #expect(error?.key == "GOOGLE_API_KEY")
        #expect(error?.places.count == 3)
        let text = error?.description ?? ""
        #expect(text.contains("secret \"GOOGLE_API_KEY\" not found"))
        #expect(text.contains("environment variable APP_GOOGLE_API_KEY"))
        #expect(text.contains("JSON file \(json.path)"))
        #expect(text.contains("property list \(plist.path)"))
    }

    @Test(arguments: [
        (#"{"KEY": "sk-SUPER-SECRET-1234567890", "#, "it is not valid"),
        (#"["sk-SUPER-SECRET-1234567890"]"#, "the top level is not an object"),
        (#"{"KEY": 1, "OTHER": "sk-SUPER-SECRET-1234567890"}"#, "the value of \"KEY\" is not a string"),
    ])
    func aMalformedJSONFileNamesTheFileAndTheProblemButNoValue(content: String, problem: String) throws {
        let json = try folder().appending(path: "broken.json")
        try Data(content.utf8).write(to: json)
        let error = #expect(throws: SecretsError.self) { try Secrets([.jsonFile(json)])["KEY"] }
        #expect(error?.file == json)
        #expect(error?.description.contains(json.path) == true)
        #expect(error?.description.contains(problem) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(Self.value) == false)
    }

    @Test func aMalformedPropertyListIsAnError() throws {
        let plist = try folder().appending(path: "Secrets.plist")
        try Data("not a plist \(Self.value)".utf8).write(to: plist)
        let error = #expect(throws: SecretsError.self) { try Secrets([.propertyList(plist)])["KEY"] }
        #expect(error?.description.contains("property list \(plist.path) can't be used") == true)
        #expect(error?.description.contains(Self.value) == false)
    }

    @Test func aSecretNeverShowsItsValue() throws {
        let secret = try Secrets([.environment(["KEY": Self.value])])["KEY"]
        #expect(secret.value == Self.value)
        var dumped = ""
        dump(secret, to: &dumped)
        for text in ["\(secret)", String(reflecting: secret), dumped, "\([secret])"] {
            #expect(!text.contains(Self.value), "the value leaked into \(text)")
        }
    }
}
