#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/io/gltf_tinygltf.h"
#include "core/util/result.h"

namespace articula {

// Contents of a glTF accessor, decoded to double (exact for float and for every integer
// component type glTF has). Element e, component c is values[e * components + c]; matrix
// components are column-major like the file, with column padding removed.
struct GltfAccessorData {
  std::size_t count = 0;
  int components = 0;
  int type = 0;           // TINYGLTF_TYPE_*
  int componentType = 0;  // TINYGLTF_COMPONENT_TYPE_*
  bool normalized = false;
  std::vector<double> values;

  double at(std::size_t element, int component) const {
    return values[element * static_cast<std::size_t>(components) + static_cast<std::size_t>(component)];
  }
};

// Reads accessor `index` of `model`, applying sparse substitution. Every index (accessor,
// bufferView, buffer) and every byte range (accessor inside its bufferView, bufferView
// inside its buffer, sparse indices and values) is checked before a byte is read, as are
// strides, sparse index order and float finiteness. Normalized integers are mapped to
// [0, 1] / [-1, 1] with the glTF 2.0 formulas; other integers keep their integer values.
// Errors start with "accessor <index>: " and do not name the file.
Result<GltfAccessorData> readGltfAccessor(const tinygltf::Model& model, int index);

// Bytes of bufferView `index` after the same range checks (embedded images).
Result<std::span<const unsigned char>> gltfBufferViewBytes(const tinygltf::Model& model, int index);

}  // namespace articula
