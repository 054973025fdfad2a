#pragma once
// A character's feet as points of its mesh, and the floor its rest stands on: what a
// retarget puts the feet on (core/retarget/feet_on_floor) and what the foot-skate cleanup
// then keeps them above.
#include <array>
#include <span>
#include <vector>

#include "core/math/types.h"

namespace articula {

// A point of a foot, carried by joints as a skin carries its vertex: the sum over `carriers`
// of weight × the joint's model matrix × `local` (the point in that joint's bind space).
struct FootPoint {
  struct Carrier {
    int joint = -1;
    float weight = 1.0f;
    Vec3 local = Vec3::Zero();
  };
  std::vector<Carrier> carriers;
  Vec3 at(std::span<const Affine> model) const;
};

// A character's feet as points that can touch the floor, and the floor its rest stands on.
struct CharacterSoles {
  std::array<std::vector<FootPoint>, 2> feet;  // left, right
  Vec3 up = Vec3::UnitY();                     // the character's ground normal, model space
  float floorHeight = 0.0f;                    // along `up`: the lowest point of its rest
  float legLength = 0.0f;                      // legLength at rest
};

}  // namespace articula
