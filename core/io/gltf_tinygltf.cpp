// The single translation unit that compiles tinygltf's implementation (with the
// configuration of gltf_tinygltf.h). Nothing else may define TINYGLTF_IMPLEMENTATION.
#define TINYGLTF_IMPLEMENTATION
#include "core/io/gltf_tinygltf.h"
