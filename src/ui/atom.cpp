#include "ui/atom.h"

#include <libxml/xmlwriter.h>

#include <memory>

namespace longread::ui {
namespace {

// XML 1.0 section 2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. The
// input is valid UTF-8 (the pipeline cleans every text), so only these code points need dropping.
std::string xml_chars(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') continue;
    // U+FFFE and U+FFFF are EF BF BE / EF BF BF.
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) == 0xBE || static_cast<unsigned char>(s[i + 2]) == 0xBF)) {
      i += 2;
      continue;
    }
    out += s[i];
  }
  return out;
}

const xmlChar* x(const char* s) {
  return reinterpret_cast<const xmlChar*>(s);
}

struct BufferDeleter {
  void operator()(xmlBuffer* b) const { xmlBufferFree(b); }
};
struct WriterDeleter {
  void operator()(xmlTextWriter* w) const { xmlFreeTextWriter(w); }
};

class Writer {
 public:
  Writer() : buffer_(xmlBufferCreate()), writer_(xmlNewTextWriterMemory(buffer_.get(), 0)) {}
  [[nodiscard]] bool ok() const { return buffer_ && writer_; }
  void start(const char* name) { xmlTextWriterStartElement(writer_.get(), x(name)); }
  void end() { xmlTextWriterEndElement(writer_.get()); }
  void attribute(const char* name, const std::string& value) {
    xmlTextWriterWriteAttribute(writer_.get(), x(name), x(xml_chars(value).c_str()));
  }
  void element(const char* name, const std::string& value) {
    xmlTextWriterWriteElement(writer_.get(), x(name), x(xml_chars(value).c_str()));
  }
  void link(const char* rel, const std::string& href, const char* type = nullptr) {
    start("link");
    attribute("rel", rel);
    if (type != nullptr) attribute("type", type);
    attribute("href", href);
    end();
  }
  xmlTextWriter* get() { return writer_.get(); }
  std::string finish() {
    xmlTextWriterEndDocument(writer_.get());
    writer_.reset();  // flushes into the buffer
    return std::string(reinterpret_cast<const char*>(xmlBufferContent(buffer_.get())),
                       static_cast<std::size_t>(xmlBufferLength(buffer_.get())));
  }

 private:
  std::unique_ptr<xmlBuffer, BufferDeleter> buffer_;
  std::unique_ptr<xmlTextWriter, WriterDeleter> writer_;
};

}  // namespace

std::string atom_document(const AtomFeed& feed) {
  Writer w;
  if (!w.ok()) return {};
  xmlTextWriterSetIndent(w.get(), 1);
  xmlTextWriterStartDocument(w.get(), "1.0", "UTF-8", nullptr);
  w.start("feed");
  w.attribute("xmlns", "http://www.w3.org/2005/Atom");
  w.element("id", feed.id);
  w.element("title", feed.title);
  if (!feed.subtitle.empty()) w.element("subtitle", feed.subtitle);
  w.element("updated", format_rfc3339(feed.updated));
  w.start("author");
  w.element("name", feed.author);
  w.end();
  w.link("self", feed.self, "application/atom+xml");
  w.link("alternate", feed.alternate, "text/html");
  if (!feed.first.empty()) w.link("first", feed.first, "application/atom+xml");
  if (!feed.next.empty()) w.link("next", feed.next, "application/atom+xml");
  for (const auto& e : feed.entries) {
    w.start("entry");
    w.element("id", e.id);
    w.element("title", e.title);
    w.link("alternate", e.link);
    if (!e.related.empty() && e.related != e.link) w.link("related", e.related, "text/html");
    // RFC 4287 4.2.15: "updated" is required; the store keeps no separate edit time that a reader would
    // care about, so it is the article's date, like "published".
    w.element("published", format_rfc3339(e.published));
    w.element("updated", format_rfc3339(e.published));
    if (!e.author.empty()) {
      w.start("author");
      w.element("name", e.author);
      w.end();
    }
    if (!e.category.empty()) {
      w.start("category");
      w.attribute("term", e.category);
      w.end();
    }
    for (const auto& c : e.categories) {
      w.start("category");
      w.attribute("term", c.term);
      if (!c.scheme.empty()) w.attribute("scheme", c.scheme);
      if (!c.label.empty()) w.attribute("label", c.label);
      w.end();
    }
    if (!e.summary.empty()) w.element("summary", e.summary);
    w.end();
  }
  w.end();
  return w.finish();
}

}  // namespace longread::ui
