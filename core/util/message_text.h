#pragma once
// Error lines a person reads: one line, printable, short, in our words. A file's names and
// data reach messages (a joint name 100,000 characters long, NUL bytes, a data URI, a JSON
// library's report); these keep what is echoed readable.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace articula {

inline constexpr std::size_t kMaxErrorLineLength = 300;

// `text` on one line, printable and at most `maxLength` bytes: line breaks become spaces,
// other control bytes (NUL, escape sequences) '?', bytes that are not UTF-8 '?', and a longer
// text keeps its start (which names the file) and ends with "...".
inline std::string printableLine(std::string_view text, std::size_t maxLength = kMaxErrorLineLength - 1);

// A name or value from a file as a message quotes it: printable, at most `maxLength` bytes,
// the middle left out ("LeftHandIndex…Tip_end") so both ends still tell it apart.
inline std::string shortName(std::string_view name, std::size_t maxLength = 60);

// nlohmann::json's exception text ("[json.exception.parse_error.101] parse error at line 1,
// column 5: syntax error while parsing value - invalid literal; last read: 'x'") in our words
// ("not valid JSON at line 1, column 5: invalid literal"); other text unchanged.
inline std::string jsonErrorInOurWords(std::string_view what);

// Implementation.
namespace message_text_detail {

inline constexpr std::string_view kEllipsis = "...";

// Bytes of the UTF-8 sequence starting at text[at], 0 when it is not a valid one.
inline std::size_t utf8Length(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const std::size_t length = lead < 0x80           ? 1
                             : (lead >> 5) == 0x6  ? 2
                             : (lead >> 4) == 0xE  ? 3
                             : (lead >> 3) == 0x1E ? 4
                                                   : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[at + k]) & 0xC0) != 0x80) return 0;
  }
  return length;
}

// Appends `text` made printable to `out`, stopping before `out` would pass `limit` bytes;
// returns how many bytes of `text` were taken.
inline std::size_t appendPrintable(std::string& out, std::string_view text, std::size_t limit) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t length = utf8Length(text, at);
    const auto byte = static_cast<unsigned char>(text[at]);
    const std::size_t taken = length == 0 ? 1 : length;
    if (out.size() + taken > limit) break;
    if (byte == '\n' || byte == '\r' || byte == '\t') {
      out += ' ';
    } else if (length == 0 || byte < 0x20 || byte == 0x7F) {
      out += '?';
    } else {
      out.append(text.substr(at, length));
    }
    at += taken;
  }
  return at;
}

}  // namespace message_text_detail

inline std::string printableLine(std::string_view text, std::size_t maxLength) {
  std::string out;
  out.reserve(std::min(text.size(), maxLength));
  if (message_text_detail::appendPrintable(out, text, maxLength) == text.size()) return out;
  out.clear();
  message_text_detail::appendPrintable(
      out, text,
      maxLength > message_text_detail::kEllipsis.size() ? maxLength - message_text_detail::kEllipsis.size() : 0);
  return out.append(message_text_detail::kEllipsis);
}

inline std::string shortName(std::string_view name, std::size_t maxLength) {
  std::string whole;
  if (message_text_detail::appendPrintable(whole, name, maxLength) == name.size()) return whole;
  // Both ends: "LeftHandIndex" and "_end" tell joints apart more than their middles do.
  const std::size_t half = (maxLength - message_text_detail::kEllipsis.size()) / 2;
  std::string out;
  message_text_detail::appendPrintable(out, name, half);
  std::size_t tailStart = name.size() > half ? name.size() - half : 0;
  while (tailStart < name.size() && (static_cast<unsigned char>(name[tailStart]) & 0xC0) == 0x80) ++tailStart;
  out.append(message_text_detail::kEllipsis);
  std::string tail;
  message_text_detail::appendPrintable(tail, name.substr(tailStart), half);
  return out + tail;
}

inline std::string jsonErrorInOurWords(std::string_view what) {
  constexpr std::string_view kLibraryPrefix = "[json.exception.";
  const std::size_t prefixAt = what.find(kLibraryPrefix);
  if (prefixAt == std::string_view::npos) return std::string(what);
  const std::size_t close = what.find("] ", prefixAt);
  if (close == std::string_view::npos) return std::string(what);
  std::string_view rest = what.substr(close + 2);
  constexpr std::string_view kParseError = "parse error";
  if (rest.rfind(kParseError, 0) != 0) return std::string(what.substr(0, prefixAt)).append(rest);
  // "parse error at line 1, column 5: syntax error while parsing value - invalid literal; last read: 'x'"
  std::string where;
  const std::size_t colon = rest.find(": ");
  if (rest.substr(kParseError.size()).rfind(" at ", 0) == 0 && colon != std::string_view::npos)
    where = std::string(rest.substr(kParseError.size() + 1, colon - kParseError.size() - 1));
  std::string_view reason = rest.substr(colon == std::string_view::npos ? rest.size() : colon + 2);
  if (const std::size_t dash = reason.find(" - "); dash != std::string_view::npos) reason.remove_prefix(dash + 3);
  if (const std::size_t lastRead = reason.find("; last read"); lastRead != std::string_view::npos)
    reason = reason.substr(0, lastRead);
  std::string out(what.substr(0, prefixAt));
  out += "not valid JSON";
  if (!where.empty()) out += " " + where;
  if (!reason.empty()) out += ": " + std::string(reason);
  return out;
}

}  // namespace articula
