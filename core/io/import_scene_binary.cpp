#include "core/io/import_scene_binary.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <type_traits>
#include <utility>
#include <vector>

namespace articula {
namespace {

// Marks the start of a stream so bytes of anything else are refused at once.
constexpr std::uint32_t kMagic = 0x53435341;  // "ASCS" read little-endian

class Writer {
 public:
  template <typename T>
  void pod(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    mBytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void count(std::size_t n) { pod(static_cast<std::uint64_t>(n)); }
  void text(const std::string& s) {
    count(s.size());
    mBytes.append(s);
  }
  template <typename Matrix>
  void matrix(const Matrix& m) {
    for (Eigen::Index i = 0; i < m.size(); ++i) pod(m.data()[i]);
  }
  void quat(const Quat& q) { matrix(q.coeffs()); }
  void transform(const Transform& t) {
    matrix(t.translation);
    quat(t.rotation);
    matrix(t.scale);
  }
  template <typename T, typename WriteOne>
  void list(const std::vector<T>& items, WriteOne writeOne) {
    count(items.size());
    for (const T& item : items) writeOne(item);
  }
  template <typename T>
  void podList(const std::vector<T>& items) {
    list(items, [this](const T& item) { pod(item); });
  }
  template <typename T>
  void matrixList(const std::vector<T>& items) {
    list(items, [this](const T& item) { matrix(item); });
  }
  std::string take() { return std::move(mBytes); }

 private:
  std::string mBytes;
};

// Reads what Writer wrote. The first failure sticks: later reads return zeros and ok()
// stays false, so decoding code reads straight through and checks once per list.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : mBytes(bytes) {}

  bool ok() const { return mOk; }
  std::size_t offset() const { return mOffset; }
  bool atEnd() const { return mOffset == mBytes.size(); }

  template <typename T>
  T pod() {
    T value{};
    if (!take(sizeof(T))) return value;
    std::memcpy(&value, mBytes.data() + mOffset - sizeof(T), sizeof(T));
    return value;
  }
  // A count of items each at least `minItemBytes` long: refused when the bytes left cannot
  // hold them, so a corrupted count never drives an allocation.
  std::size_t count(std::size_t minItemBytes) {
    const auto n = pod<std::uint64_t>();
    if (!mOk) return 0;
    if (minItemBytes > 0 && n > (mBytes.size() - mOffset) / minItemBytes) {
      mOk = false;
      return 0;
    }
    return static_cast<std::size_t>(n);
  }
  std::string text() {
    const std::size_t n = count(1);
    if (!take(n)) return {};
    return std::string(mBytes.substr(mOffset - n, n));
  }
  template <typename Matrix>
  void matrix(Matrix& m) {
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = pod<typename Matrix::Scalar>();
  }
  Quat quat() {
    Quat q;
    matrix(q.coeffs());
    return q;
  }
  Transform transform() {
    Transform t;
    matrix(t.translation);
    t.rotation = quat();
    matrix(t.scale);
    return t;
  }
  template <typename T, typename ReadOne>
  std::vector<T> list(std::size_t minItemBytes, ReadOne readOne) {
    const std::size_t n = count(minItemBytes);
    std::vector<T> items;
    items.reserve(n);
    for (std::size_t i = 0; i < n && mOk; ++i) items.push_back(readOne());
    return items;
  }
  template <typename T>
  std::vector<T> podList() {
    return list<T>(sizeof(T), [this] { return pod<T>(); });
  }
  template <typename T>
  std::vector<T> matrixList() {
    return list<T>(sizeof(typename T::Scalar) * static_cast<std::size_t>(T::SizeAtCompileTime), [this] {
      T m;
      matrix(m);
      return m;
    });
  }

 private:
  bool take(std::size_t n) {
    if (!mOk || n > mBytes.size() - mOffset) {
      mOk = false;
      return false;
    }
    mOffset += n;
    return true;
  }

  std::string_view mBytes;
  std::size_t mOffset = 0;
  bool mOk = true;
};

// ---- writing ------------------------------------------------------------------------

void writeCurve(Writer& out, const Curve& curve) {
  out.list(curve.keys(), [&](const CurveKey& key) {
    out.pod(key.time);
    out.pod(key.value);
    out.pod(key.interpolation);
    out.pod(key.leftType);
    out.pod(key.rightType);
    out.matrix(key.left);
    out.matrix(key.right);
  });
}

void writeVec3Track(Writer& out, const Vec3Track& track) {
  writeCurve(out, track.x);
  writeCurve(out, track.y);
  writeCurve(out, track.z);
}

void writeClip(Writer& out, const Clip& clip) {
  out.text(clip.name);
  out.pod(clip.frameRate);
  out.pod(clip.startTime);
  out.pod(clip.endTime);
  out.list(clip.tracks, [&](const JointTrack& track) {
    out.pod(track.joint);
    writeVec3Track(out, track.translation);
    out.list(track.rotation.keys(), [&](const RotationKey& key) {
      out.pod(key.time);
      out.quat(key.value);
      out.pod(key.interpolation);
      out.quat(key.inControl);
      out.quat(key.outControl);
    });
    writeVec3Track(out, track.scale);
  });
  out.count(clip.curves.size());
  for (const auto& [name, curve] : clip.curves) {
    out.text(name);
    writeCurve(out, curve);
  }
  out.list(clip.morphWeights, [&](const MorphWeightsTrack& track) {
    out.pod(track.mesh);
    out.list(track.weights, [&](const Curve& curve) { writeCurve(out, curve); });
  });
}

void writeMesh(Writer& out, const Mesh& mesh) {
  out.text(mesh.name);
  out.pod(mesh.node);
  out.matrixList(mesh.positions);
  out.matrixList(mesh.normals);
  out.matrixList(mesh.texCoords);
  out.podList(mesh.indices);
  out.pod(mesh.material);
  out.pod(static_cast<std::uint8_t>(mesh.hasSkin));
  out.text(mesh.skin.name);
  out.podList(mesh.skin.joints);
  out.matrixList(mesh.skin.inverseBindMatrices);
  out.pod(mesh.skin.influencesPerVertex);
  out.podList(mesh.skin.vertexJoints);
  out.podList(mesh.skin.vertexWeights);
  out.list(mesh.morphTargets, [&](const MorphTarget& target) {
    out.text(target.name);
    out.matrixList(target.positionDeltas);
    out.matrixList(target.normalDeltas);
  });
  out.podList(mesh.morphWeights);
}

void writeMaterial(Writer& out, const Material& material) {
  out.text(material.name);
  out.matrix(material.baseColor);
  out.text(material.textureUri);
  out.podList(material.textureData);
  out.text(material.textureMimeType);
}

// ---- reading ------------------------------------------------------------------------

// The smallest encoding of one item of each list, for Reader::count's plausibility check.
constexpr std::size_t kMinCountBytes = sizeof(std::uint64_t);

Curve readCurve(Reader& in) {
  std::vector<CurveKey> keys = in.list<CurveKey>(2 * sizeof(double), [&] {
    CurveKey key;
    key.time = in.pod<double>();
    key.value = in.pod<double>();
    key.interpolation = in.pod<Interpolation>();
    key.leftType = in.pod<HandleType>();
    key.rightType = in.pod<HandleType>();
    in.matrix(key.left);
    in.matrix(key.right);
    return key;
  });
  Curve curve;
  curve.setKeys(std::move(keys));
  return curve;
}

Vec3Track readVec3Track(Reader& in) {
  Vec3Track track;
  track.x = readCurve(in);
  track.y = readCurve(in);
  track.z = readCurve(in);
  return track;
}

Clip readClip(Reader& in) {
  Clip clip;
  clip.name = in.text();
  clip.frameRate = in.pod<double>();
  clip.startTime = in.pod<double>();
  clip.endTime = in.pod<double>();
  clip.tracks = in.list<JointTrack>(sizeof(int), [&] {
    JointTrack track;
    track.joint = in.pod<int>();
    track.translation = readVec3Track(in);
    track.rotation.setKeys(in.list<RotationKey>(sizeof(double), [&] {
      RotationKey key;
      key.time = in.pod<double>();
      key.value = in.quat();
      key.interpolation = in.pod<RotationInterpolation>();
      key.inControl = in.quat();
      key.outControl = in.quat();
      return key;
    }));
    track.scale = readVec3Track(in);
    return track;
  });
  const std::size_t curveCount = in.count(kMinCountBytes);
  for (std::size_t i = 0; i < curveCount && in.ok(); ++i) {
    std::string name = in.text();
    clip.curves.emplace(std::move(name), readCurve(in));
  }
  clip.morphWeights = in.list<MorphWeightsTrack>(sizeof(int), [&] {
    MorphWeightsTrack track;
    track.mesh = in.pod<int>();
    track.weights = in.list<Curve>(kMinCountBytes, [&] { return readCurve(in); });
    return track;
  });
  return clip;
}

Mesh readMesh(Reader& in) {
  Mesh mesh;
  mesh.name = in.text();
  mesh.node = in.pod<int>();
  mesh.positions = in.matrixList<Vec3>();
  mesh.normals = in.matrixList<Vec3>();
  mesh.texCoords = in.matrixList<Vec2>();
  mesh.indices = in.podList<std::uint32_t>();
  mesh.material = in.pod<int>();
  mesh.hasSkin = in.pod<std::uint8_t>() != 0;
  mesh.skin.name = in.text();
  mesh.skin.joints = in.podList<int>();
  mesh.skin.inverseBindMatrices = in.matrixList<Mat4>();
  mesh.skin.influencesPerVertex = in.pod<int>();
  mesh.skin.vertexJoints = in.podList<std::uint16_t>();
  mesh.skin.vertexWeights = in.podList<float>();
  mesh.morphTargets = in.list<MorphTarget>(kMinCountBytes, [&] {
    MorphTarget target;
    target.name = in.text();
    target.positionDeltas = in.matrixList<Vec3>();
    target.normalDeltas = in.matrixList<Vec3>();
    return target;
  });
  mesh.morphWeights = in.podList<float>();
  return mesh;
}

Material readMaterial(Reader& in) {
  Material material;
  material.name = in.text();
  in.matrix(material.baseColor);
  material.textureUri = in.text();
  material.textureData = in.podList<std::uint8_t>();
  material.textureMimeType = in.text();
  return material;
}

// Nodes are added parent first, as Skeleton::addJoint requires; a parent that does not
// precede its child means corrupted bytes.
bool readSkeleton(Reader& in, Skeleton& skeleton) {
  const std::size_t count = in.count(sizeof(int));
  for (std::size_t i = 0; i < count && in.ok(); ++i) {
    std::string name = in.text();
    const int parent = in.pod<int>();
    const Transform rest = in.transform();
    const auto kind = in.pod<NodeKind>();
    if (!in.ok() || parent < kNoParent || parent >= static_cast<int>(i)) return false;
    skeleton.addJoint(std::move(name), parent, rest, kind);
  }
  return in.ok();
}

}  // namespace

std::string encodeSceneBinary(const Scene& scene) {
  Writer out;
  out.pod(kMagic);
  out.text(scene.sourcePath);
  const Skeleton& skeleton = scene.skeleton;
  out.count(static_cast<std::size_t>(skeleton.jointCount()));
  for (int node = 0; node < skeleton.jointCount(); ++node) {
    out.text(skeleton.name(node));
    out.pod(skeleton.parent(node));
    out.transform(skeleton.restLocal(node));
    out.pod(skeleton.kind(node));
  }
  out.list(scene.meshes, [&](const Mesh& mesh) { writeMesh(out, mesh); });
  out.list(scene.materials, [&](const Material& material) { writeMaterial(out, material); });
  out.list(scene.clips, [&](const Clip& clip) { writeClip(out, clip); });
  out.podList(scene.rotationOrders);
  return out.take();
}

Result<Scene> decodeSceneBinary(std::string_view bytes) {
  Reader in(bytes);
  if (in.pod<std::uint32_t>() != kMagic) return makeError("the import result is not a scene");
  Scene scene;
  scene.sourcePath = in.text();
  if (!readSkeleton(in, scene.skeleton)) {
    return makeError("the import result is cut short or corrupted in the skeleton, at byte " +
                     std::to_string(in.offset()));
  }
  scene.meshes = in.list<Mesh>(kMinCountBytes, [&] { return readMesh(in); });
  scene.materials = in.list<Material>(kMinCountBytes, [&] { return readMaterial(in); });
  scene.clips = in.list<Clip>(kMinCountBytes, [&] { return readClip(in); });
  scene.rotationOrders = in.podList<RotationOrder>();
  if (!in.ok() || !in.atEnd()) {
    return makeError("the import result is cut short or corrupted, at byte " + std::to_string(in.offset()));
  }
  return scene;
}

}  // namespace articula
