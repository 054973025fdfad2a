#pragma once
#include <QString>

#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "ui/commands/change_value.h"

namespace articula::ui {

// The scene's clip list and the clip shown.
struct ClipList {
  std::vector<Clip> clips;
  int currentIndex = -1;
};

// Duplicates or deletes a clip of the scene: swaps the whole clip list and the current
// clip, so undo gives back exactly the list (and the clip shown) from before.
class ClipListCommand : public ChangeValue<ClipList> {
 public:
  // A copy of clip `clipIndex` named "<name> copy" (made unique), inserted after it and made
  // current. Obsolete when the clip does not exist.
  static ClipListCommand* duplicate(Document* document, int clipIndex);
  // `clip` (a bake's result), renamed "<name> <suffix>" (made unique), inserted after clip
  // `clipIndex` and made current; the clip it came from stays as it was.
  static ClipListCommand* insertAfter(Document* document, int clipIndex, Clip clip, const std::string& suffix,
                                      const QString& text);
  // `added` after the scene's clips, each renamed "<name> 2", ... when its name is taken; the
  // first of them becomes current. Obsolete when `added` is empty.
  static ClipListCommand* append(Document* document, std::vector<Clip> added, const QString& text);
  // Removes clip `clipIndex`; the clip before it (or the new first one) becomes current.
  static ClipListCommand* remove(Document* document, int clipIndex);

 private:
  ClipListCommand(Document* document, std::vector<Clip> clips, int currentIndex, const QString& text);
  ClipList exchange(ClipList list) override;
};

}  // namespace articula::ui
