import Foundation
import PlaytraceCore
import Testing

@Suite("What an XML document is checked for before XMLParser reads it")
struct XMLDocumentCheckTests {
    @Test("A document type is found in any case, wherever it is; an unfinished one at the very end too")
    func documentTypes() {
        for text in ["<!DOCTYPE a>", "<a/><!doctype a>", "<?xml version=\"1.0\"?>\n<!Entity x \"y\">", "<!<!ENTITY"] {
            #expect(XMLDocumentCheck.declaresDocumentType(Data(text.utf8)), "\(text)")
        }
        for text in ["", "<", "<!", "<!DOCTYP", "<a>DOCTYPE</a>", "<!-- ENTITY -->", "<a b=\"<!ENTIT\"/>"] {
            #expect(!XMLDocumentCheck.declaresDocumentType(Data(text.utf8)), "\(text)")
        }
    }

    @Test("Instructions without data become spaces, lines unchanged; others and the rest stay; nothing copied when none")
    func emptyInstructions() {
        let text = "<?xml version=\"1.0\"?><?p?>\n<a><?q?><?r data?><b/></a><?s"
        let blanked = String(decoding: XMLDocumentCheck.blankingEmptyProcessingInstructions(Data(text.utf8)), as: UTF8.self)
        #expect(blanked == "<?xml version=\"1.0\"?>     \n<a>     <?r data?><b/></a><?s")
        let plain = Data("<a><?r data?></a>".utf8)
        #expect(XMLDocumentCheck.blankingEmptyProcessingInstructions(plain) == plain)
    }

    @Test("Screened in one pass: nil where a document type is declared, else the instructions without data blanked")
    func screenedInOnePass() {
        let texts = ["<!DOCTYPE a>", "<a/><!doctype a>", "<?xml version=\"1.0\"?>\n<!Entity x \"y\">", "<!<!ENTITY", "<?p <!DOCTYPE a>?>",
                     "<?<!ENTITY", "", "<", "<!", "<?", "<!DOCTYP", "<a>DOCTYPE</a>", "<!-- ENTITY -->", "<a b=\"<!ENTIT\"/>",
                     "<?xml version=\"1.0\"?><?p?>\n<a><?q?><?r data?><b/></a><?s", "<a><?r data?></a>", "<?p?><!DOCTYPE a>"]
        for text in texts {
            let data = Data(text.utf8)
            let expected = XMLDocumentCheck.declaresDocumentType(data) ? nil : XMLDocumentCheck.blankingEmptyProcessingInstructions(data)
            #expect(XMLDocumentCheck.screened(data) == expected, "\(text)")
        }
    }

    @Test("UTF-8 is checked without decoding: a lone continuation byte, a cut sequence and an overlong form fail")
    func utf8() {
        #expect(XMLDocumentCheck.isUTF8(Data("<a>é €</a>".utf8)))
        #expect(XMLDocumentCheck.isUTF8(Data()))
        for bytes: [UInt8] in [[0x3C, 0x80], [0x3C, 0xE2, 0x82], [0xC0, 0xAF], [0xFF]] {
            #expect(!XMLDocumentCheck.isUTF8(Data(bytes)), "\(bytes)")
        }
    }
}
