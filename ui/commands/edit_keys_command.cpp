#include "ui/commands/edit_keys_command.h"

#include <algorithm>

#include "ui/commands/command_ids.h"
#include "ui/document/document.h"

namespace articula::ui {

EditKeysCommand::EditKeysCommand(Document* document, int clipIndex, Clip clip, const QString& text,
                                 QUndoCommand* parent)
    : EditKeysCommand(document, clipIndex, Scope::WholeClip, std::move(clip), text, parent) {}

EditKeysCommand::EditKeysCommand(Document* document, int clipIndex, Scope scope, Clip clipOrPart, const QString& text,
                                 QUndoCommand* parent)
    : QUndoCommand(text, parent),
      mDocument(document),
      mClipIndex(clipIndex),
      mScope(scope),
      mKeys(std::move(clipOrPart)) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(document->scene().clips.size())) setObsolete(true);
}

void EditKeysCommand::redo() { swap(); }
void EditKeysCommand::undo() { swap(); }

void EditKeysCommand::swap() {
  if (isObsolete()) return;
  mKeys = mScope == Scope::WholeClip ? mDocument->replaceClip({}, mClipIndex, std::move(mKeys))
                                     : mDocument->swapClipPart({}, mClipIndex, std::move(mKeys));
}

int EditKeysCommand::id() const { return kEditKeysCommandId; }

bool EditKeysCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const EditKeysCommand*>(other);
  if (!next || !next->mMergeable || next->mClipIndex != mClipIndex || isObsolete()) return false;
  // The stack has already run `next`, so the document holds the keys of the latest mouse
  // move; this command keeps what the drag started from for undo. A part cannot restore
  // what a whole-clip edit changed beyond it.
  if (mScope == Scope::Part && next->mScope == Scope::WholeClip) return false;
  if (mScope == Scope::Part) adoptTracksOf(*next);
  return true;
}

// Channels `next` touched for the first time in this drag: `next` holds them as the drag
// found them, which is what undo must put back.
void EditKeysCommand::adoptTracksOf(const EditKeysCommand& next) {
  for (const JointTrack& track : next.mKeys.tracks) {
    const bool known = std::any_of(mKeys.tracks.begin(), mKeys.tracks.end(),
                                   [&track](const JointTrack& t) { return t.joint == track.joint; });
    if (!known) mKeys.tracks.push_back(track);
  }
  for (const auto& [name, curve] : next.mKeys.curves) mKeys.curves.try_emplace(name, curve);
}

}  // namespace articula::ui
