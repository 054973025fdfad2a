#pragma once
#include <memory>

namespace articula::ui {

class Document;
class ReplaceClipCommand;

// A dialog's preview of an edit of one clip: the ReplaceClipCommand runs outside the undo
// stack while it is shown, so the user's redo history stays, and each new setting replaces
// it. apply() puts the shown edit on the stack as one undo step whose undo restores the clip
// as the user left it; drop() (and the destructor) put the clip back.
class ClipPreview {
 public:
  explicit ClipPreview(Document* document);
  ~ClipPreview();
  ClipPreview(const ClipPreview&) = delete;
  ClipPreview& operator=(const ClipPreview&) = delete;

  void show(std::unique_ptr<ReplaceClipCommand> edit);
  void drop();
  void apply();

 private:
  Document* const mDocument;
  std::unique_ptr<ReplaceClipCommand> mShown;  // redone while shown, not on the stack
};

}  // namespace articula::ui
