// Our own BVH reader. Assimp would turn each joint's Euler channels into quaternions and
// forget the channel order, and its errors carry no line number.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/io/import.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

constexpr std::string_view kWhitespace = " \t\r\v\f";
constexpr std::size_t kMaxChannelsPerJoint = 6;
// Motion capture skeletons have tens to a few hundred joints; a file declaring more than this
// is refused before its joints and keys are allocated.
constexpr std::size_t kMaxJoints = 100'000;
constexpr double kDegToRad = 3.14159265358979323846 / 180.0;
// A frame time within this relative distance of 1/n seconds is taken as exactly n frames per
// second: BVH writers print ".0083333" for 120 fps, and keys should land on whole frames.
constexpr double kFrameRateSnap = 1e-4;

// Channel kinds; the first three are translations, the last three rotations, each indexed
// by axis (x, y, z) after subtracting the kind's base.
enum class ChannelKind : std::uint8_t { XPosition, YPosition, ZPosition, XRotation, YRotation, ZRotation };

constexpr std::array<std::string_view, 6> kChannelNames = {"Xposition", "Yposition", "Zposition",
                                                           "Xrotation", "Yrotation", "Zrotation"};

bool isPosition(ChannelKind c) { return c <= ChannelKind::ZPosition; }
int axisOf(ChannelKind c) { return static_cast<int>(c) % 3; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::optional<ChannelKind> channelFromName(std::string_view name) {
  for (std::size_t i = 0; i < kChannelNames.size(); ++i) {
    if (equalsIgnoreCase(name, kChannelNames[i])) return static_cast<ChannelKind>(i);
  }
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(kWhitespace);
  return s.substr(first, last - first + 1);
}

// Parses a whole token as a finite number. BVH writers use "-0.00000", ".0083333" and
// occasionally a leading '+', which std::from_chars alone rejects.
std::optional<double> parseNumber(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double value = 0.0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  // Spatial data is single precision: a value finite as double may overflow float.
  if (!std::isfinite(static_cast<float>(value))) return std::nullopt;
  return value;
}

std::optional<long long> parseCount(std::string_view token) {
  long long value = 0;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

std::string inQuotes(std::string_view s) { return "'" + std::string(s) + "'"; }

// The text split into lines (LF, CRLF or CR), with a cursor that hands out whitespace
// separated tokens and remembers on which line each one was.
class TokenCursor {
 public:
  explicit TokenCursor(std::string_view text) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\n' && text[i] != '\r') continue;
      mLines.push_back(text.substr(start, i - start));
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      start = i + 1;
    }
    if (start < text.size()) mLines.push_back(text.substr(start));
  }

  struct Token {
    std::string_view text;
    int line = 0;  // 1-based
  };

  std::optional<Token> next() {
    while (mLine < mLines.size()) {
      const std::string_view line = mLines[mLine];
      const auto begin = line.find_first_not_of(kWhitespace, mColumn);
      if (begin == std::string_view::npos) {
        ++mLine;
        mColumn = 0;
        continue;
      }
      auto end = line.find_first_of(kWhitespace, begin);
      if (end == std::string_view::npos) end = line.size();
      mColumn = end;
      return Token{line.substr(begin, end - begin), lineNumber()};
    }
    return std::nullopt;
  }

  // What is left of the current line, trimmed; the cursor moves to the next line.
  std::string_view restOfLine() {
    if (mLine >= mLines.size()) return {};
    const std::string_view rest = trim(mLines[mLine].substr(std::min(mColumn, mLines[mLine].size())));
    ++mLine;
    mColumn = 0;
    return rest;
  }

  // The next line that is not blank, trimmed, or nullopt at the end of the text.
  std::optional<Token> nextLine() {
    if (mColumn != 0) {
      ++mLine;
      mColumn = 0;
    }
    while (mLine < mLines.size()) {
      const std::string_view line = trim(mLines[mLine]);
      const int number = lineNumber();
      ++mLine;
      if (!line.empty()) return Token{line, number};
    }
    return std::nullopt;
  }

  int lineNumber() const { return static_cast<int>(std::min(mLine, mLines.size())) + 1; }
  int lastLineNumber() const { return std::max(1, static_cast<int>(mLines.size())); }

 private:
  std::vector<std::string_view> mLines;
  std::size_t mLine = 0;
  std::size_t mColumn = 0;
};

struct BvhJoint {
  int node = -1;  // index in the skeleton
  std::vector<ChannelKind> channels;  // written order
  bool hasPosition = false;
  bool hasRotation = false;
  RotationOrder order = RotationOrder::XYZ;
};

// A '{' block being read: a ROOT/JOINT (joint >= 0) or an End Site (joint = -1).
struct OpenBlock {
  int joint = -1;  // index into BvhParser::mJoints
  int node = -1;   // index in the skeleton
  std::string label;  // "ROOT Hips", "End Site of Head", for messages
  int openLine = 0;
  bool hasOffset = false;
  bool hasChannels = false;
};

class BvhParser {
 public:
  BvhParser(std::string_view text, std::string nameForMessages) : mCursor(text), mName(std::move(nameForMessages)) {}

  Result<Scene> run() {
    if (auto error = parseHierarchy()) return *error;
    if (auto error = parseMotion()) return *error;
    if (auto problem = mScene.skeleton.validate()) return makeError(mName + ": " + *problem);
    return std::move(mScene);
  }

 private:
  Error fail(int line, const std::string& what) const {
    return makeError(mName + ": line " + std::to_string(line) + ": " + what);
  }

  std::string uniqueName(std::string base) {
    if (mUsedNames.insert(base).second) return base;
    for (int n = 1;; ++n) {
      std::string candidate = base + "." + std::to_string(n);
      if (mUsedNames.insert(candidate).second) return candidate;
    }
  }

  int addNode(const std::string& name, int parent, NodeKind kind) {
    const int node = mScene.skeleton.addJoint(uniqueName(name), parent, Transform::identity(), kind);
    mScene.rotationOrders.push_back(RotationOrder::XYZ);
    return node;
  }

  // After "ROOT" or "JOINT": the name (rest of the line, names may hold spaces) and '{',
  // which some writers put on the same line.
  std::optional<Error> openJoint(const TokenCursor::Token& keyword, int parentNode) {
    std::string_view name = mCursor.restOfLine();
    bool braceOnLine = false;
    if (name.size() >= 1 && name.back() == '{') {
      name = trim(name.substr(0, name.size() - 1));
      braceOnLine = true;
    }
    if (name.empty()) return fail(keyword.line, "expected a joint name after " + inQuotes(keyword.text));
    const std::string label = std::string(keyword.text) + " " + std::string(name);
    if (!braceOnLine) {
      const auto brace = mCursor.next();
      if (!brace || brace->text != "{") {
        return fail(brace ? brace->line : keyword.line, "expected '{' after " + inQuotes(label));
      }
    }
    if (mJoints.size() >= kMaxJoints) {
      return fail(keyword.line, inQuotes(label) + " is one joint too many: the limit is " + std::to_string(kMaxJoints) +
                                    " joints");
    }
    BvhJoint joint;
    joint.node = addNode(std::string(name), parentNode, NodeKind::Joint);
    mJoints.push_back(std::move(joint));
    mStack.push_back(OpenBlock{static_cast<int>(mJoints.size()) - 1, mJoints.back().node, label, keyword.line});
    return std::nullopt;
  }

  std::optional<Error> openEndSite(const TokenCursor::Token& keyword, const OpenBlock& parent) {
    const auto site = mCursor.next();
    if (!site || site->text != "Site") {
      return fail(site ? site->line : keyword.line, "expected 'Site' after 'End' in " + inQuotes(parent.label));
    }
    const auto brace = mCursor.next();
    if (!brace || brace->text != "{") {
      return fail(brace ? brace->line : site->line, "expected '{' after 'End Site' in " + inQuotes(parent.label));
    }
    // An End Site only places the tip of its parent's bone: a Tip node, not a joint.
    // A copy: addNode appends to the skeleton's names, which may move them.
    const std::string parentName = mScene.skeleton.name(parent.node);
    const int node = addNode(parentName + "_End", parent.node, NodeKind::Tip);
    mStack.push_back(OpenBlock{-1, node, "End Site of " + parentName, keyword.line});
    return std::nullopt;
  }

  std::optional<Error> readOffset(const TokenCursor::Token& keyword, OpenBlock& block) {
    if (block.hasOffset) return fail(keyword.line, "a second OFFSET in " + inQuotes(block.label));
    Vec3 offset;
    for (int axis = 0; axis < 3; ++axis) {
      const auto token = mCursor.next();
      if (!token) return fail(mCursor.lastLineNumber(), "unexpected end of file in the OFFSET of " + inQuotes(block.label));
      const auto value = parseNumber(token->text);
      if (!value) {
        return fail(token->line, "OFFSET of " + inQuotes(block.label) + ": " + inQuotes(token->text) + " is not a number");
      }
      offset[axis] = static_cast<float>(*value);
    }
    Transform rest;
    rest.translation = offset;  // BVH rest pose: the offset, no rotation
    mScene.skeleton.setRestLocal(block.node, rest);
    block.hasOffset = true;
    return std::nullopt;
  }

  std::optional<Error> readChannels(const TokenCursor::Token& keyword, OpenBlock& block) {
    if (block.joint < 0) return fail(keyword.line, "an End Site has no CHANNELS (in " + inQuotes(block.label) + ")");
    if (block.hasChannels) return fail(keyword.line, "a second CHANNELS line in " + inQuotes(block.label));
    const auto countToken = mCursor.next();
    if (!countToken) return fail(mCursor.lastLineNumber(), "unexpected end of file after CHANNELS");
    const auto count = parseCount(countToken->text);
    if (!count || *count > static_cast<long long>(kMaxChannelsPerJoint)) {
      return fail(countToken->line, "CHANNELS of " + inQuotes(block.label) + ": the count must be 0 to 6, found " +
                                        inQuotes(countToken->text));
    }
    BvhJoint& joint = mJoints[static_cast<std::size_t>(block.joint)];
    std::string rotationAxes;
    for (long long c = 0; c < *count; ++c) {
      const auto token = mCursor.next();
      if (!token) return fail(mCursor.lastLineNumber(), "unexpected end of file in the CHANNELS of " + inQuotes(block.label));
      const auto kind = channelFromName(token->text);
      if (!kind) {
        return fail(token->line, "unknown channel name " + inQuotes(token->text) + " in " + inQuotes(block.label) +
                                     " (expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation)");
      }
      if (std::find(joint.channels.begin(), joint.channels.end(), *kind) != joint.channels.end()) {
        return fail(token->line, "channel " + inQuotes(token->text) + " appears twice in " + inQuotes(block.label));
      }
      joint.channels.push_back(*kind);
      if (isPosition(*kind)) {
        joint.hasPosition = true;
      } else {
        joint.hasRotation = true;
        rotationAxes += static_cast<char>('X' + axisOf(*kind));
      }
    }
    // Axes without a channel stay at zero, so where they sit in the order changes nothing;
    // append them in x, y, z order to name a full three-axis order.
    for (const char axis : std::string_view("XYZ")) {
      if (rotationAxes.find(axis) == std::string::npos) rotationAxes += axis;
    }
    joint.order = rotationOrderFromString(rotationAxes).value_or(RotationOrder::XYZ);
    mScene.rotationOrders[static_cast<std::size_t>(joint.node)] = joint.order;
    mChannelCount += joint.channels.size();
    block.hasChannels = true;
    return std::nullopt;
  }

  std::optional<Error> parseHierarchy() {
    const auto first = mCursor.next();
    if (!first) return makeError(mName + ": the file is empty");
    if (first->text != "HIERARCHY") {
      return fail(first->line, "expected 'HIERARCHY' at the start of a BVH file, found " + inQuotes(first->text));
    }
    while (true) {
      const auto token = mCursor.next();
      if (!token) {
        if (!mStack.empty()) {
          const OpenBlock& open = mStack.back();
          return fail(mCursor.lastLineNumber(), "unexpected end of file: the '{' of " + inQuotes(open.label) +
                                                    " (line " + std::to_string(open.openLine) +
                                                    ") is never closed (unbalanced braces)");
        }
        if (mJoints.empty()) return fail(mCursor.lastLineNumber(), "no ROOT joint in the HIERARCHY");
        return fail(mCursor.lastLineNumber(), "missing MOTION section after the HIERARCHY");
      }
      const std::string_view word = token->text;
      if (mStack.empty()) {
        if (word == "ROOT") {
          if (auto error = openJoint(*token, kNoParent)) return error;
        } else if (word == "MOTION") {
          if (mJoints.empty()) return fail(token->line, "MOTION before any ROOT joint");
          return std::nullopt;
        } else if (word == "}") {
          return fail(token->line, "unexpected '}' outside any joint (unbalanced braces)");
        } else {
          return fail(token->line, "expected 'ROOT' or 'MOTION', found " + inQuotes(word));
        }
        continue;
      }
      OpenBlock& block = mStack.back();
      if (word == "}") {
        if (!block.hasOffset) return fail(token->line, inQuotes(block.label) + " has no OFFSET");
        mStack.pop_back();
      } else if (word == "OFFSET") {
        if (auto error = readOffset(*token, block)) return error;
      } else if (word == "CHANNELS") {
        if (auto error = readChannels(*token, block)) return error;
      } else if (word == "JOINT" || word == "End") {
        if (block.joint < 0) return fail(token->line, "an End Site cannot have children (in " + inQuotes(block.label) + ")");
        if (!block.hasOffset) return fail(token->line, inQuotes(block.label) + ": expected OFFSET before its children");
        // openJoint/openEndSite push onto mStack, which invalidates `block`: copy first.
        const OpenBlock parent = block;
        if (auto error = word == "JOINT" ? openJoint(*token, parent.node) : openEndSite(*token, parent)) return error;
      } else if (word == "ROOT" || word == "MOTION" || word == "{") {
        return fail(token->line, "unexpected " + inQuotes(word) + " inside " + inQuotes(block.label) +
                                     ": missing '}' (unbalanced braces)");
      } else {
        return fail(token->line, "unexpected " + inQuotes(word) + " in " + inQuotes(block.label));
      }
    }
  }

  // "Frames: 344" / "Frame Time: .0083333": the label (words may be spaced out), ':', one value.
  std::optional<Error> readHeaderValue(std::string_view label, std::string_view& value, int& line) {
    const auto text = mCursor.nextLine();
    if (!text) return fail(mCursor.lastLineNumber(), "unexpected end of file: expected " + inQuotes(std::string(label) + ":"));
    line = text->line;
    const auto colon = text->text.find(':');
    std::string words;
    std::istringstream labelWords{std::string(text->text.substr(0, colon))};
    for (std::string w; labelWords >> w;) words += (words.empty() ? "" : " ") + w;
    if (colon == std::string_view::npos || words != label) {
      return fail(line, "expected " + inQuotes(std::string(label) + ": <value>") + ", found " + inQuotes(text->text));
    }
    value = trim(text->text.substr(colon + 1));
    return std::nullopt;
  }

  std::optional<Error> parseMotion() {
    std::string_view framesText;
    int framesLine = 0;
    if (auto error = readHeaderValue("Frames", framesText, framesLine)) return error;
    const auto frames = parseCount(framesText);
    if (!frames) return fail(framesLine, "Frames: " + inQuotes(framesText) + " is not a frame count");
    std::string_view frameTimeText;
    int frameTimeLine = 0;
    if (auto error = readHeaderValue("Frame Time", frameTimeText, frameTimeLine)) return error;
    const auto frameTime = parseNumber(frameTimeText);
    if (!frameTime || *frameTime <= 0.0) {
      return fail(frameTimeLine, "Frame Time: " + inQuotes(frameTimeText) + " is not a positive number of seconds");
    }
    double rate = 1.0 / *frameTime;
    const double whole = std::round(rate);
    if (whole >= 1.0 && std::abs(rate - whole) <= kFrameRateSnap * rate) rate = whole;

    const std::size_t jointCount = mJoints.size();
    std::vector<std::vector<RotationKey>> rotationKeys(jointCount);
    std::vector<std::array<std::vector<CurveKey>, 3>> positionKeys(jointCount);
    std::vector<double> values;
    values.reserve(mChannelCount);

    // A hierarchy without channels has empty motion lines: nothing to read.
    const long long framesToRead = mChannelCount == 0 ? 0 : *frames;
    for (long long frame = 0; frame < framesToRead; ++frame) {
      const auto line = mCursor.nextLine();
      if (!line) {
        return fail(mCursor.lastLineNumber(), "Frames says " + std::to_string(*frames) + " but the file holds only " +
                                                  std::to_string(frame) + " motion lines");
      }
      values.clear();
      std::size_t tokenCount = 0;
      std::size_t position = 0;
      const std::string_view text = line->text;
      while (true) {
        const auto begin = text.find_first_not_of(kWhitespace, position);
        if (begin == std::string_view::npos) break;
        auto end = text.find_first_of(kWhitespace, begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view token = text.substr(begin, end - begin);
        position = end;
        ++tokenCount;
        if (tokenCount > mChannelCount) continue;  // too many: only counted, for the message
        const auto value = parseNumber(token);
        if (!value) {
          return fail(line->line, "value " + std::to_string(tokenCount) + " of frame " + std::to_string(frame) + ", " +
                                      inQuotes(token) + ", is not a number");
        }
        values.push_back(*value);
      }
      if (tokenCount != mChannelCount) {
        return fail(line->line, "frame " + std::to_string(frame) + " has " + std::to_string(tokenCount) +
                                    " values, the HIERARCHY declares " + std::to_string(mChannelCount) + " channels");
      }
      const double time = static_cast<double>(frame) / rate;
      addFrame(values, time, rotationKeys, positionKeys);
    }
    if (framesToRead == 0) return std::nullopt;

    Clip clip;
    clip.name = std::filesystem::path(mName).stem().string();
    if (clip.name.empty()) clip.name = "motion";
    clip.frameRate = rate;
    clip.startTime = 0.0;
    // The clip ends on its last frame, so it samples Frames frames (Clip::frameCount counts
    // start to end inclusive): ending one frame later held the last pose for a frame, a hitch
    // in every loop of a cycle and a key a bake wrote for nothing.
    clip.endTime = static_cast<double>(framesToRead - 1) / rate;
    // Each BVH joint is its own node, so each gets a new track: no look-up, linear in joints.
    for (std::size_t j = 0; j < jointCount; ++j) {
      const BvhJoint& joint = mJoints[j];
      if (!joint.hasPosition && !joint.hasRotation) continue;
      JointTrack& track = clip.tracks.emplace_back();
      track.joint = joint.node;
      if (joint.hasRotation) track.rotation.setKeys(std::move(rotationKeys[j]));
      // Only the written position axes get curves; the others fall back to the OFFSET.
      if (!positionKeys[j][0].empty()) track.translation.x.setKeys(std::move(positionKeys[j][0]));
      if (!positionKeys[j][1].empty()) track.translation.y.setKeys(std::move(positionKeys[j][1]));
      if (!positionKeys[j][2].empty()) track.translation.z.setKeys(std::move(positionKeys[j][2]));
    }
    mScene.clips.push_back(std::move(clip));
    return std::nullopt;
  }

  void addFrame(const std::vector<double>& values, double time, std::vector<std::vector<RotationKey>>& rotationKeys,
                std::vector<std::array<std::vector<CurveKey>, 3>>& positionKeys) const {
    std::size_t v = 0;
    for (std::size_t j = 0; j < mJoints.size(); ++j) {
      const BvhJoint& joint = mJoints[j];
      Vec3 anglesRad = Vec3::Zero();
      for (const ChannelKind channel : joint.channels) {
        const double value = values[v++];
        if (isPosition(channel)) {
          // A position channel replaces the OFFSET on its axis (the BVH root convention).
          CurveKey key;
          key.time = time;
          key.value = value;
          key.interpolation = Interpolation::Linear;
          positionKeys[j][static_cast<std::size_t>(axisOf(channel))].push_back(key);
        } else {
          anglesRad[axisOf(channel)] = static_cast<float>(value * kDegToRad);
        }
      }
      if (!joint.hasRotation) continue;
      RotationKey key;
      key.time = time;
      key.value = eulerToQuat(anglesRad, joint.order);
      key.interpolation = RotationInterpolation::Slerp;
      auto& keys = rotationKeys[j];
      // Keep consecutive keys in one hemisphere so slerp takes the short way.
      if (!keys.empty()) key.value = alignHemisphere(key.value, keys.back().value);
      keys.push_back(key);
    }
  }

  TokenCursor mCursor;
  std::string mName;
  Scene mScene;
  std::vector<BvhJoint> mJoints;
  std::vector<OpenBlock> mStack;
  std::unordered_set<std::string> mUsedNames;
  std::size_t mChannelCount = 0;
};

}  // namespace

Result<Scene> importBvhFromText(std::string_view text, const std::string& nameForMessages) {
  constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  return BvhParser(text, nameForMessages).run();
}

Result<Scene> importBvh(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return makeError(path + ": cannot open the file");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (file.bad()) return makeError(path + ": error while reading the file");
  Result<Scene> scene = importBvhFromText(text, path);
  if (scene) scene->sourcePath = path;
  return scene;
}

}  // namespace articula
