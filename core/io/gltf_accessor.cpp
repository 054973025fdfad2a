#include "core/io/gltf_accessor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace articula {

namespace {

static_assert(std::endian::native == std::endian::little,
              "glTF binary data is little-endian and is decoded in place");

// An accessor without a bufferView is all zeros (plus sparse values); its count is the only
// size the file gives, so it is capped to keep a corrupt count from exhausting memory.
constexpr std::size_t kMaxUnbackedCount = std::size_t{1} << 24;

int componentSize(int componentType) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;  // INT and DOUBLE exist in tinygltf but not in glTF 2.0 accessors
  }
}

struct Shape {
  int columns = 0;  // 1 for scalars and vectors
  int rows = 0;
};

Shape shapeOf(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return {1, 1};
    case TINYGLTF_TYPE_VEC2: return {1, 2};
    case TINYGLTF_TYPE_VEC3: return {1, 3};
    case TINYGLTF_TYPE_VEC4: return {1, 4};
    case TINYGLTF_TYPE_MAT2: return {2, 2};
    case TINYGLTF_TYPE_MAT3: return {3, 3};
    case TINYGLTF_TYPE_MAT4: return {4, 4};
    default: return {};
  }
}

struct Layout {
  Shape shape;
  int componentType = 0;
  bool normalized = false;
  std::size_t componentBytes = 0;
  std::size_t columnStride = 0;
  std::size_t elementBytes = 0;
};

Layout layoutOf(Shape shape, int componentType, bool normalized) {
  Layout layout{shape, componentType, normalized, static_cast<std::size_t>(componentSize(componentType)), 0, 0};
  const std::size_t rowBytes = static_cast<std::size_t>(shape.rows) * layout.componentBytes;
  // Matrix columns start on 4-byte boundaries (glTF 2.0, "Data Alignment"), which pads
  // MAT2/MAT3 of bytes and MAT3 of shorts; vectors are tightly packed.
  layout.columnStride = shape.columns > 1 ? (rowBytes + 3) / 4 * 4 : rowBytes;
  layout.elementBytes = layout.columnStride * static_cast<std::size_t>(shape.columns);
  return layout;
}

template <typename T>
T load(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// glTF 2.0 "Animations" table of normalized integer decoding (also used for attributes).
double decodeComponent(const unsigned char* p, int componentType, bool normalized) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      const double c = load<std::int8_t>(p);
      return normalized ? std::max(c / 127.0, -1.0) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
      const double c = load<std::uint8_t>(p);
      return normalized ? c / 255.0 : c;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      const double c = load<std::int16_t>(p);
      return normalized ? std::max(c / 32767.0, -1.0) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      const double c = load<std::uint16_t>(p);
      return normalized ? c / 65535.0 : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return load<std::uint32_t>(p);
    default:
      return load<float>(p);
  }
}

void decodeElement(const unsigned char* p, const Layout& layout, double* out) {
  for (int c = 0; c < layout.shape.columns; ++c) {
    for (int r = 0; r < layout.shape.rows; ++r) {
      const unsigned char* component = p + static_cast<std::size_t>(c) * layout.columnStride +
                                       static_cast<std::size_t>(r) * layout.componentBytes;
      out[c * layout.shape.rows + r] = decodeComponent(component, layout.componentType, layout.normalized);
    }
  }
}

// True when [offset, offset + length) lies inside [0, size), without overflow.
bool fits(std::size_t offset, std::size_t length, std::size_t size) {
  return length <= size && offset <= size - length;
}

// Bytes of bufferView `index`; errors name the bufferView and its buffer.
Result<std::span<const unsigned char>> viewBytes(const tinygltf::Model& model, int index) {
  const std::string self = "bufferView " + std::to_string(index);
  if (index < 0 || static_cast<std::size_t>(index) >= model.bufferViews.size()) {
    return makeError(self + " does not exist (the file has " + std::to_string(model.bufferViews.size()) +
                     " bufferViews)");
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<std::size_t>(index)];
  if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= model.buffers.size()) {
    return makeError(self + " refers to buffer " + std::to_string(view.buffer) + ", but the file has " +
                     std::to_string(model.buffers.size()) + " buffers");
  }
  const std::vector<unsigned char>& data = model.buffers[static_cast<std::size_t>(view.buffer)].data;
  if (!fits(view.byteOffset, view.byteLength, data.size())) {
    return makeError(self + " is out of range: bytes " + std::to_string(view.byteOffset) + " + " +
                     std::to_string(view.byteLength) + " of buffer " + std::to_string(view.buffer) +
                     ", which holds " + std::to_string(data.size()) + " bytes");
  }
  return std::span<const unsigned char>(data.data() + view.byteOffset, view.byteLength);
}

}  // namespace

Result<std::span<const unsigned char>> gltfBufferViewBytes(const tinygltf::Model& model, int index) {
  return viewBytes(model, index);
}

Result<GltfAccessorData> readGltfAccessor(const tinygltf::Model& model, int index) {
  const std::string self = "accessor " + std::to_string(index) + ": ";
  if (index < 0 || static_cast<std::size_t>(index) >= model.accessors.size()) {
    return makeError(self + "does not exist (the file has " + std::to_string(model.accessors.size()) + " accessors)");
  }
  const tinygltf::Accessor& accessor = model.accessors[static_cast<std::size_t>(index)];
  const Shape shape = shapeOf(accessor.type);
  if (shape.rows == 0) return makeError(self + "unknown type " + std::to_string(accessor.type));
  if (componentSize(accessor.componentType) == 0) {
    return makeError(self + "unsupported componentType " + std::to_string(accessor.componentType));
  }
  if (accessor.normalized && (accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT ||
                              accessor.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)) {
    return makeError(self + "normalized is only allowed for byte and short components");
  }
  if (accessor.count == 0) return makeError(self + "count is 0");
  const Layout layout = layoutOf(shape, accessor.componentType, accessor.normalized);
  const auto components = static_cast<std::size_t>(shape.columns * shape.rows);

  GltfAccessorData result;
  result.count = accessor.count;
  result.components = shape.columns * shape.rows;
  result.type = accessor.type;
  result.componentType = accessor.componentType;
  result.normalized = accessor.normalized;

  if (accessor.bufferView >= 0) {
    auto bytes = viewBytes(model, accessor.bufferView);
    if (!bytes) return makeError(self + bytes.error());
    const tinygltf::BufferView& view = model.bufferViews[static_cast<std::size_t>(accessor.bufferView)];
    if (view.byteStride != 0 && view.byteStride < layout.elementBytes) {
      return makeError(self + "bufferView " + std::to_string(accessor.bufferView) + " has byteStride " +
                       std::to_string(view.byteStride) + ", smaller than the " +
                       std::to_string(layout.elementBytes) + "-byte element");
    }
    const std::size_t stride = view.byteStride != 0 ? view.byteStride : layout.elementBytes;
    // The last element ends at byteOffset + (count - 1) * stride + elementBytes.
    const std::size_t available = bytes->size();
    const bool inRange = fits(accessor.byteOffset, layout.elementBytes, available) &&
                         (accessor.count - 1) <= (available - accessor.byteOffset - layout.elementBytes) / stride;
    if (!inRange) {
      return makeError(self + "out of range: " + std::to_string(accessor.count) + " elements of " +
                       std::to_string(layout.elementBytes) + " bytes (stride " + std::to_string(stride) +
                       ") from byte " + std::to_string(accessor.byteOffset) + " do not fit in bufferView " +
                       std::to_string(accessor.bufferView) + " (" + std::to_string(available) + " bytes)");
    }
    result.values.resize(accessor.count * components);
    for (std::size_t e = 0; e < accessor.count; ++e) {
      decodeElement(bytes->data() + accessor.byteOffset + e * stride, layout, &result.values[e * components]);
    }
  } else {
    // No bufferView: the elements start as zeros (glTF 2.0), then sparse values apply.
    if (accessor.count > kMaxUnbackedCount) {
      return makeError(self + "count " + std::to_string(accessor.count) + " is too large for an accessor without a bufferView");
    }
    result.values.assign(accessor.count * components, 0.0);
  }

  if (accessor.sparse.isSparse) {
    const auto& sparse = accessor.sparse;
    if (sparse.count < 1 || static_cast<std::size_t>(sparse.count) > accessor.count) {
      return makeError(self + "sparse count " + std::to_string(sparse.count) + " is not in [1, " +
                       std::to_string(accessor.count) + "]");
    }
    const int indexType = sparse.indices.componentType;
    if (indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) {
      return makeError(self + "sparse indices have componentType " + std::to_string(indexType) +
                       ", not an unsigned integer type");
    }
    if (sparse.indices.byteOffset < 0 || sparse.values.byteOffset < 0) {
      return makeError(self + "negative sparse byteOffset");
    }
    auto indexBytes = viewBytes(model, sparse.indices.bufferView);
    if (!indexBytes) return makeError(self + "sparse indices: " + indexBytes.error());
    auto valueBytes = viewBytes(model, sparse.values.bufferView);
    if (!valueBytes) return makeError(self + "sparse values: " + valueBytes.error());
    const auto n = static_cast<std::size_t>(sparse.count);
    const auto indexSize = static_cast<std::size_t>(componentSize(indexType));
    const auto indexOffset = static_cast<std::size_t>(sparse.indices.byteOffset);
    const auto valueOffset = static_cast<std::size_t>(sparse.values.byteOffset);
    if (!fits(indexOffset, n * indexSize, indexBytes->size())) {
      return makeError(self + "sparse indices run past the end of bufferView " +
                       std::to_string(sparse.indices.bufferView));
    }
    if (!fits(valueOffset, n * layout.elementBytes, valueBytes->size())) {
      return makeError(self + "sparse values run past the end of bufferView " +
                       std::to_string(sparse.values.bufferView));
    }
    std::size_t previous = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto target = static_cast<std::size_t>(
          decodeComponent(indexBytes->data() + indexOffset + i * indexSize, indexType, false));
      if (target >= accessor.count) {
        return makeError(self + "sparse index " + std::to_string(target) + " is out of range (count " +
                         std::to_string(accessor.count) + ")");
      }
      if (i > 0 && target <= previous) return makeError(self + "sparse indices are not strictly increasing");
      previous = target;
      decodeElement(valueBytes->data() + valueOffset + i * layout.elementBytes, layout,
                    &result.values[target * components]);
    }
  }

  if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) {
    const auto bad = std::find_if(result.values.begin(), result.values.end(), [](double v) { return !std::isfinite(v); });
    if (bad != result.values.end()) {
      const auto element = static_cast<std::size_t>(bad - result.values.begin()) / components;
      return makeError(self + "element " + std::to_string(element) + " is not a finite number");
    }
  }
  return result;
}

}  // namespace articula
