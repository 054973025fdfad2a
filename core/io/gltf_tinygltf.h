#pragma once
// The one way core/io includes tinygltf: every translation unit must see the same
// configuration macros, because they change inline code of tinygltf::TinyGLTF.
//
// Images are never decoded (the editor keeps PNG/JPEG bytes and uploads them itself), so
// stb_image is not needed; external image files are not read either, only their uri is kept.
#ifndef TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE
#endif
#ifndef TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#endif
#ifndef TINYGLTF_NO_EXTERNAL_IMAGE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#endif

#include <tiny_gltf.h>
