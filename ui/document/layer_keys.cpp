#include "ui/document/layer_keys.h"

#include <QCoreApplication>

#include <algorithm>
#include <utility>

#include "ui/document/document.h"

namespace articula::ui {

namespace {

bool validLayer(const Clip& clip, int layer) { return layer >= 0 && layer < static_cast<int>(clip.layers.size()); }

}  // namespace

void swapTracksByJoint(std::vector<JointTrack>& tracks, std::vector<JointTrack>& part) {
  for (JointTrack& track : part) {
    const auto found =
        std::find_if(tracks.begin(), tracks.end(), [&track](const JointTrack& t) { return t.joint == track.joint; });
    if (found != tracks.end()) std::swap(track, *found);
  }
}

Clip layerKeysOf(const Clip& clip, int layer) {
  Clip keys;
  keys.name = clip.name;
  keys.frameRate = clip.frameRate;
  keys.startTime = clip.startTime;
  keys.endTime = clip.endTime;
  if (validLayer(clip, layer)) keys.tracks = clip.layers[static_cast<std::size_t>(layer)].tracks;
  return keys;
}

void swapLayerKeys(Clip& clip, int layer, bool part, Clip& keys) {
  if (!validLayer(clip, layer)) return;
  std::vector<JointTrack>& tracks = clip.layers[static_cast<std::size_t>(layer)].tracks;
  if (part) {
    swapTracksByJoint(tracks, keys.tracks);
  } else {
    std::swap(tracks, keys.tracks);
  }
  std::swap(keys.startTime, clip.startTime);
  std::swap(keys.endTime, clip.endTime);
}

QString editedKeysName(const Clip& clip, int layer) {
  if (!validLayer(clip, layer)) return QCoreApplication::translate("LayerKeys", "Base");
  const AnimLayer& edited = clip.layers[static_cast<std::size_t>(layer)];
  const QString name = QString::fromStdString(edited.name);
  return edited.locked ? QCoreApplication::translate("LayerKeys", "%1 (locked)").arg(name) : name;
}

QString keyViewTitle(const QString& view, const Document& document) {
  const Clip* clip = document.currentClip();
  if (!clip || clip->layers.empty()) return view;
  return QStringLiteral("%1 \u00b7 %2").arg(view, editedKeysName(*clip, document.activeLayer()));
}

}  // namespace articula::ui
