#include "ui/commands/edit_keys_command.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ui/commands/command_ids.h"
#include "ui/document/document.h"

namespace articula::ui {

EditKeysCommand::EditKeysCommand(Document* document, int clipIndex, Clip clip, const QString& text,
                                 QUndoCommand* parent)
    : EditKeysCommand(document, clipIndex, Scope::WholeClip, std::move(clip), text, parent) {}

EditKeysCommand::EditKeysCommand(Document* document, int clipIndex, Scope scope, Clip clipOrPart, const QString& text,
                                 QUndoCommand* parent)
    : EditKeysCommand(document, clipIndex, -1, scope, std::move(clipOrPart), text, parent) {}

EditKeysCommand::EditKeysCommand(Document* document, int clipIndex, int layer, Scope scope, Clip clipOrPart,
                                 const QString& text, QUndoCommand* parent)
    : ChangeValue(document, std::move(clipOrPart), text, parent), mClipIndex(clipIndex), mLayer(layer), mScope(scope) {
  const auto& clips = document->scene().clips;
  if (clipIndex < 0 || clipIndex >= static_cast<int>(clips.size())) {
    setObsolete(true);
    return;
  }
  // A locked layer takes no edit (the key views say so before they make one).
  const auto& layers = clips[static_cast<std::size_t>(clipIndex)].layers;
  if (layer >= static_cast<int>(layers.size()) || (layer >= 0 && layers[static_cast<std::size_t>(layer)].locked))
    setObsolete(true);
}

Clip EditKeysCommand::exchange(Clip keys) {
  if (mLayer >= 0) return document()->swapLayerKeys({}, mClipIndex, mLayer, mScope == Scope::Part, std::move(keys));
  return mScope == Scope::WholeClip ? document()->replaceClip({}, mClipIndex, std::move(keys))
                                    : document()->swapClipPart({}, mClipIndex, std::move(keys));
}

void EditKeysCommand::redo() {
  ChangeValue::redo();
  if (mPushed && mSelectionRestore) mSelectionRestore(false);
  mPushed = true;
}

void EditKeysCommand::undo() {
  ChangeValue::undo();
  if (mSelectionRestore) mSelectionRestore(true);
}

int EditKeysCommand::id() const { return kEditKeysCommandId; }

bool EditKeysCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const EditKeysCommand*>(other);
  if (!next || next->mClipIndex != mClipIndex || next->mLayer != mLayer || !canFold(*next)) return false;
  // The stack has already run `next`, so the document holds the keys of the latest mouse
  // move; this command keeps what the drag started from for undo. Drags edit parts, and a
  // part can only restore what it holds: it folds in a part of the same tracks and curves.
  return mScope == Scope::Part && next->mScope == Scope::Part && holdsSameChannels(*next);
}

bool EditKeysCommand::holdsSameChannels(const EditKeysCommand& other) const {
  const auto jointsOf = [](const Clip& part) {
    std::vector<int> joints;
    for (const JointTrack& track : part.tracks) joints.push_back(track.joint);
    std::sort(joints.begin(), joints.end());
    return joints;
  };
  const auto curveNamesOf = [](const Clip& part) {
    std::vector<std::string> names;
    for (const auto& entry : part.curves) names.push_back(entry.first);
    return names;
  };
  return jointsOf(value()) == jointsOf(other.value()) && curveNamesOf(value()) == curveNamesOf(other.value());
}

}  // namespace articula::ui
