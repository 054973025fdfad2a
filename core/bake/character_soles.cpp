#include "core/bake/character_soles.h"

namespace articula {

Vec3 FootPoint::at(std::span<const Affine> model) const {
  Vec3 position = Vec3::Zero();
  for (const Carrier& carrier : carriers)
    position += carrier.weight * (model[static_cast<std::size_t>(carrier.joint)] * carrier.local);
  return position;
}

}  // namespace articula
