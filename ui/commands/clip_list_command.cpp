#include "ui/commands/clip_list_command.h"

#include <QCoreApplication>

#include <algorithm>

#include "ui/document/document.h"

namespace articula::ui {

namespace {

bool validIndex(const Document& document, int clipIndex) {
  return clipIndex >= 0 && clipIndex < static_cast<int>(document.scene().clips.size());
}

}  // namespace

ClipListCommand::ClipListCommand(Document* document, std::vector<Clip> clips, int currentIndex, const QString& text)
    : ChangeValue(document, ClipList{std::move(clips), currentIndex}, text, nullptr) {}

ClipListCommand* ClipListCommand::duplicate(Document* document, int clipIndex) {
  const QString text = QCoreApplication::translate("ClipListCommand", "Duplicate Clip");
  std::vector<Clip> clips = document->scene().clips;
  if (!validIndex(*document, clipIndex)) {
    auto* command = new ClipListCommand(document, std::move(clips), document->currentClipIndex(), text);
    command->setObsolete(true);
    return command;
  }
  Clip copy = clips[static_cast<std::size_t>(clipIndex)];
  copy.name = uniqueClipName(clips, copy.name + " copy");
  clips.insert(clips.begin() + clipIndex + 1, std::move(copy));
  return new ClipListCommand(document, std::move(clips), clipIndex + 1, text);
}

ClipListCommand* ClipListCommand::insertAfter(Document* document, int clipIndex, Clip clip, const std::string& suffix,
                                              const QString& text) {
  std::vector<Clip> clips = document->scene().clips;
  const int at = validIndex(*document, clipIndex) ? clipIndex + 1 : static_cast<int>(clips.size());
  clip.name = uniqueClipName(clips, clip.name + " " + suffix);
  clips.insert(clips.begin() + at, std::move(clip));
  return new ClipListCommand(document, std::move(clips), at, text);
}

ClipListCommand* ClipListCommand::append(Document* document, std::vector<Clip> added, const QString& text) {
  std::vector<Clip> clips = document->scene().clips;
  const int first = static_cast<int>(clips.size());
  for (Clip& clip : added) {
    clip.name = uniqueClipName(clips, clip.name);
    clips.push_back(std::move(clip));
  }
  auto* command = new ClipListCommand(document, std::move(clips), first, text);
  if (added.empty()) command->setObsolete(true);
  return command;
}

ClipListCommand* ClipListCommand::remove(Document* document, int clipIndex) {
  const QString text = QCoreApplication::translate("ClipListCommand", "Delete Clip");
  std::vector<Clip> clips = document->scene().clips;
  if (!validIndex(*document, clipIndex)) {
    auto* command = new ClipListCommand(document, std::move(clips), document->currentClipIndex(), text);
    command->setObsolete(true);
    return command;
  }
  clips.erase(clips.begin() + clipIndex);
  return new ClipListCommand(document, std::move(clips), std::max(0, clipIndex - 1), text);
}

ClipList ClipListCommand::exchange(ClipList list) {
  const int previousIndex = document()->currentClipIndex();
  return {document()->replaceClips({}, std::move(list.clips), list.currentIndex), previousIndex};
}

}  // namespace articula::ui
