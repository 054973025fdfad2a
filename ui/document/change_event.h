#pragma once
#include <QMetaType>

namespace articula::ui {

// What changed in a Document. Views receive exactly one of these per change through
// Document::changed and update only what the type says (Tiled's ChangeEvent habit), so a
// time step during playback never rebuilds the outliner.
struct ChangeEvent {
  enum class Type {
    SceneReplaced,       // a new scene was opened: everything (skeleton, meshes, clips) is new
    CurrentClipChanged,  // another clip is the one played and edited, or the clip list changed
    TimeChanged,         // the current time moved; the evaluated pose moved with it
    SelectionChanged,    // the set of selected joints changed
    PoseEdited,          // pose overrides changed (`joint`, or -1 for several); the pose moved
    JointRenamed,        // `joint` has a new name
    RolesChanged,        // the humanoid characterisation changed: the joints' role labels, or the
                         // capture convention the user set (Scene::convention)
    ClipEdited,          // keys of clip `clip` changed; the pose was re-evaluated
    RigChanged,          // the rigs, the active rig or its handle list changed; pose re-evaluated
    HandleEdited,        // handle `handle` of the active rig changed (settings, target, pole,
                         // posed or not); -1: several handles' posed state
    RigEnabledChanged,   // the active rig was switched on or off; the pose was re-evaluated
    ActiveLayerChanged,  // another layer of the current clip (or its base) is the one keyed
  };

  Type type;
  int joint = -1;   // PoseEdited, JointRenamed: the skeleton node concerned
  int clip = -1;    // ClipEdited: index of the clip in the scene
  int handle = -1;  // HandleEdited: index of the handle in the active rig
};

}  // namespace articula::ui

Q_DECLARE_METATYPE(articula::ui::ChangeEvent)
