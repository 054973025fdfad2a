#include "ui/commands/rig_set_command.h"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>

#include "core/rig/humanoid_rig.h"

namespace articula::ui {

namespace {

QString translate(const char* text) { return QCoreApplication::translate("RigCommands", text); }

RigSet withHumanoid(const Document& document, RigDefinition rig) {
  RigSet rigs = document.rigSet();
  const auto same = std::find_if(rigs.rigs.begin(), rigs.rigs.end(),
                                 [&rig](const RigDefinition& existing) { return existing.name == rig.name; });
  if (same != rigs.rigs.end()) {
    *same = std::move(rig);
    rigs.active = static_cast<int>(same - rigs.rigs.begin());
  } else {
    rigs.rigs.push_back(std::move(rig));
    rigs.active = static_cast<int>(rigs.rigs.size()) - 1;
  }
  return rigs;
}

RigSet withHandle(const Document& document, IkHandle handle) {
  RigSet rigs = document.rigSet();
  if (!rigs.activeRig()) {
    RigDefinition rig;
    rig.name = "rig";
    rigs.rigs.push_back(std::move(rig));
    rigs.active = static_cast<int>(rigs.rigs.size()) - 1;
  }
  rigs.rigs[static_cast<std::size_t>(rigs.active)].handles.push_back(std::move(handle));
  return rigs;
}

RigSet withoutHandle(const Document& document, int handle) {
  RigSet rigs = document.rigSet();
  if (!rigs.activeRig()) return rigs;
  auto& handles = rigs.rigs[static_cast<std::size_t>(rigs.active)].handles;
  if (handle >= 0 && handle < static_cast<int>(handles.size())) handles.erase(handles.begin() + handle);
  return rigs;
}

QString handleName(const Document& document, int handle) {
  const IkHandle* ikHandle = document.activeHandle(handle);
  return ikHandle ? QString::fromStdString(ikHandle->name) : QStringLiteral("?");
}

// Curve names allow letters, digits, '_' and '-' only.
std::string sanitizedName(const std::string& name) {
  std::string out;
  for (char c : name) out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_');
  return out;
}

}  // namespace

RigSetCommand::RigSetCommand(Document* document, RigSet rigs, const QString& text, QUndoCommand* parent)
    : ChangeValue(document, std::move(rigs), text, parent) {
  if (value() == document->rigSet()) setObsolete(true);
}

RigSet RigSetCommand::exchange(RigSet rigs) { return document()->setRigSet({}, std::move(rigs)); }

BuildHumanoidRigCommand::BuildHumanoidRigCommand(Document* document, RigDefinition rig, QUndoCommand* parent)
    : RigSetCommand(document, withHumanoid(*document, std::move(rig)), translate("Build Humanoid Rig"), parent) {}

Result<RigDefinition> BuildHumanoidRigCommand::humanoidRig(const Document& document) {
  return buildHumanoidRig(document.scene().skeleton);
}

AddHandleCommand::AddHandleCommand(Document* document, IkHandle handle, QUndoCommand* parent)
    : RigSetCommand(document, withHandle(*document, handle),
                    translate("Add IK Handle %1").arg(QString::fromStdString(handle.name)), parent) {}

QString AddHandleCommand::validate(const Document& document, const IkHandle& handle) {
  const RigSet rigs = withHandle(document, handle);
  const Result<Rig> bound = Rig::bind(document.scene().skeleton, *rigs.activeRig());
  return bound ? QString() : QString::fromStdString(bound.error());
}

Result<IkHandle> AddHandleCommand::handleFromSelection(const Document& document, IkSolverKind solver) {
  const Skeleton& skeleton = document.scene().skeleton;
  std::vector<int> selected = document.selectedJoints();
  if (selected.empty()) return makeError("select the joints of the chain (its root and its tip)");
  const auto depth = [&skeleton](int joint) {
    int d = 0;
    for (int j = skeleton.parent(joint); j != kNoParent; j = skeleton.parent(j)) ++d;
    return d;
  };
  std::sort(selected.begin(), selected.end(), [&](int a, int b) { return depth(a) < depth(b); });
  const int tip = selected.back();
  int root = selected.front();
  if (selected.size() == 1) {
    for (int up = 0; up < 2 && skeleton.parent(root) != kNoParent; ++up) root = skeleton.parent(root);
    if (root == tip) return makeError("'" + skeleton.name(tip) + "' has no parent to make a chain with");
  }
  std::vector<int> chain;
  for (int j = tip; j != kNoParent; j = skeleton.parent(j)) {
    chain.push_back(j);
    if (j == root) break;
  }
  if (chain.back() != root) {
    return makeError("'" + skeleton.name(root) + "' is not an ancestor of '" + skeleton.name(tip) +
                     "': select joints on one line from a joint down to its descendant");
  }
  std::reverse(chain.begin(), chain.end());
  for (int joint : selected) {
    if (std::find(chain.begin(), chain.end(), joint) == chain.end()) {
      return makeError("'" + skeleton.name(joint) + "' is not on the chain from '" + skeleton.name(root) + "' to '" +
                       skeleton.name(tip) + "'");
    }
  }
  IkHandle handle;
  const std::string base = "ik_" + sanitizedName(skeleton.name(tip));
  handle.name = base;
  const RigDefinition* rig = document.activeRig();
  for (int suffix = 2; rig && std::any_of(rig->handles.begin(), rig->handles.end(),
                                          [&](const IkHandle& h) { return h.name == handle.name; });
       ++suffix) {
    handle.name = base + "_" + std::to_string(suffix);
  }
  handle.solver = solver;
  handle.chain = std::move(chain);
  handle.targetSource = TargetSource::Handle;
  handle.targetModel = document.modelPose()[static_cast<std::size_t>(tip)].translation();
  // Tolerance relative to the character: about a millimetre on a 1.75 m one, finer than a
  // pixel at any framing an animator poses in.
  handle.toleranceModel = std::max(1e-6f, 5e-4f * document.scene().characterHeight());
  // CCD without a hinge seed converges slowly near full reach; 64 passes reach that
  // tolerance on limb-sized chains and still cost well under a millisecond.
  handle.maxIterations = 64;
  return handle;
}

RemoveHandleCommand::RemoveHandleCommand(Document* document, int handle, QUndoCommand* parent)
    : RigSetCommand(document, withoutHandle(*document, handle),
                    translate("Remove IK Handle %1").arg(handleName(*document, handle)), parent) {}

}  // namespace articula::ui
