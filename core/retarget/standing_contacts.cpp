#include "core/retarget/standing_contacts.h"

namespace articula {

Result<StandingContacts> detectStandingContacts(Scene scene, std::size_t clipIndex, ContactDetectionOptions options) {
  const std::string path = scene.sourcePath;
  if (clipIndex >= scene.clips.size()) return makeError(path + ": has no animation to find contacts in");
  auto standing = standUpright(std::move(scene), clipIndex);
  if (!standing) return makeError(standing.error());
  StandingContacts result{std::move(*standing), {}};
  Scene& stood = result.capture.scene;
  auto feet = humanoidFeet(stood.skeleton);
  if (!feet) return makeError(path + ": " + feet.error());
  if (result.capture.convention) options.upModel = result.capture.convention->upModel;
  auto detection = detectContacts(stood, stood.clips[clipIndex], *feet, options);
  if (!detection) return makeError(path + ": " + detection.error());
  result.detection = std::move(*detection);
  return result;
}

}  // namespace articula
